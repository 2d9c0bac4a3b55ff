<?php
// What the shop's pages and hooks share: settings, a small JSON file store, and the PG-Signature
// scheme of pg-checkout serve (HMAC-SHA-256 of "{t}.{body}" with PG_HOOK_SECRET, 5-minute window).
declare(strict_types=1);

const SIGNATURE_TOLERANCE = 300;

function setting(string $name, ?string $default = null): string
{
    $value = getenv($name);
    if ($value === false || trim($value) === '') {
        if ($default === null) {
            http_response_code(500);
            exit("Set $name (see README.md).\n");
        }
        return $default;
    }
    return trim($value);
}

/** The service's endpoint URL, as the elements are given it. */
function service_url(): string
{
    return rtrim(setting('PG_SERVICE_URL', 'http://127.0.0.1:8787'), '/');
}

function origin_of(string $url): string
{
    $parts = parse_url($url);
    return $parts['scheme'] . '://' . $parts['host'] . (isset($parts['port']) ? ':' . $parts['port'] : '');
}

function e(string $text): string
{
    return htmlspecialchars($text, ENT_QUOTES | ENT_HTML5, 'UTF-8');
}

// ---- Orders and results: one JSON file, locked while it changes ----

/** Runs $change on the store under an exclusive lock and saves what it returns as the store. */
function with_store(callable $change): array
{
    $dir = setting('SHOP_DATA_DIR', sys_get_temp_dir() . '/pg-php-shop');
    if (!is_dir($dir)) mkdir($dir, 0700, true);
    $handle = fopen("$dir/store.json", 'c+');
    flock($handle, LOCK_EX);
    $store = json_decode(stream_get_contents($handle) ?: '{}', true) ?: [];
    $store += ['orders' => [], 'results' => []];
    $store = $change($store);
    ftruncate($handle, 0);
    rewind($handle);
    fwrite($handle, json_encode($store, JSON_PRETTY_PRINT | JSON_UNESCAPED_UNICODE));
    fflush($handle);
    flock($handle, LOCK_UN);
    fclose($handle);
    return $store;
}

function read_store(): array
{
    return with_store(fn (array $store) => $store);
}

// ---- PG-Signature ----

function sign_body(string $body): string
{
    $t = time();
    return "t=$t,v1=" . hash_hmac('sha256', "$t.$body", setting('PG_HOOK_SECRET'));
}

/** True when the header signs exactly these bytes with our secret, within 5 minutes of our clock. */
function signature_valid(string $body, string $header): bool
{
    $timestamp = null;
    $signatures = [];
    foreach (explode(',', $header) as $part) {
        [$name, $value] = array_pad(explode('=', trim($part), 2), 2, '');
        if ($name === 't' && ctype_digit($value)) $timestamp = (int) $value;
        if ($name === 'v1') $signatures[] = $value;
    }
    if ($timestamp === null || abs(time() - $timestamp) > SIGNATURE_TOLERANCE) return false;
    $expected = hash_hmac('sha256', "$timestamp.$body", setting('PG_HOOK_SECRET'));
    $valid = false;
    foreach ($signatures as $signature) $valid = hash_equals($expected, strtolower($signature)) || $valid;
    return $valid;
}

/** Answers JSON, signed so the service can tell it comes from us. */
function json_answer(int $status, array $value): void
{
    $body = json_encode($value, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
    http_response_code($status);
    header('Content-Type: application/json');
    header('PG-Signature: ' . sign_body($body));
    echo $body;
}

/** The body of a hook request whose PG-Signature is valid; anything else is answered 401 here. */
function signed_request_body(): ?string
{
    $body = file_get_contents('php://input');
    if (!signature_valid($body, $_SERVER['HTTP_PG_SIGNATURE'] ?? '')) {
        json_answer(401, ['error' => 'PG-Signature is missing, too old or does not match']);
        return null;
    }
    return $body;
}
