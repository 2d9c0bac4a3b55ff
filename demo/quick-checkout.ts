/** The quick checkout page's script: the elements, which take over the first screen the server wrote. */
import '../src/define.ts';
