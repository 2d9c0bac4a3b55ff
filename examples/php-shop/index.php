<?php
// A minimal PHP shop paying through pg-checkout serve. Run it with the router:
//   PHP_CLI_SERVER_WORKERS=4 php -S 127.0.0.1:8080 index.php   (workers: see README.md, the first screen)
// GET / a product; POST /checkout creates an order; GET /checkout shows <pg-checkout> for it;
// GET /result shows what the service's webhook told the shop; /pg-hooks/* are the service's hooks.
declare(strict_types=1);

require __DIR__ . '/shop.php';
require __DIR__ . '/hooks.php';

// Secure over https, so the session never travels in clear; plain http still works for a local run.
// Behind a proxy that ends TLS, X-Forwarded-Proto says so (a client that fakes it only hides its own cookie).
$https = (($_SERVER['HTTPS'] ?? '') !== '' && strtolower($_SERVER['HTTPS']) !== 'off')
    || strtolower($_SERVER['HTTP_X_FORWARDED_PROTO'] ?? '') === 'https';
session_set_cookie_params(['httponly' => true, 'samesite' => 'Lax', 'secure' => $https]);

$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$method = $_SERVER['REQUEST_METHOD'];

// The hooks are the service's, called server to server: no session, no page.
if ($method === 'POST' && $path === '/pg-hooks/order') return order_lookup_hook();
if ($method === 'POST' && $path === '/pg-hooks/result') return result_webhook_hook();

// The package's files (after `npm run build`): the bundle folder of the elements (pg-checkout.js and
// the chunks it imports relatively, chunks/…) and a theme. Only names of that shape are served.
$assets = ['/assets/default.css' => ['../themes/default.css', 'text/css']];
if (preg_match('#^/assets/pg-checkout/((chunks/)?[\w.-]+\.js)$#', $path, $bundleFile)) {
    $assets[$path] = ['bundle/' . $bundleFile[1], 'text/javascript'];
}
if (isset($assets[$path])) {
    [$file, $type] = $assets[$path];
    $full = setting('PG_CHECKOUT_DIST', __DIR__ . '/../../dist') . '/' . $file;
    if (!is_file($full)) {
        http_response_code(404);
        exit("Build the package first (npm run build), or set PG_CHECKOUT_DIST.\n");
    }
    header("Content-Type: $type; charset=utf-8");
    readfile($full);
    return;
}

session_start();

// The elements talk to the service (connect-src) and post the payment form to the gateway's page
// (form-action): in the sandbox both are the service's origin. No inline script or style anywhere.
$service = origin_of(service_url());
$gateway = origin_of(setting('PG_GATEWAY_CHECKOUT_URL', service_url()));
header("Content-Security-Policy: default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    . "connect-src $service; form-action 'self' $gateway; base-uri 'self'; frame-ancestors 'none'; object-src 'none'");

function page(string $title, string $body, bool $refresh = false): void
{
    header('Content-Type: text/html; charset=utf-8');
    $meta = $refresh ? '<meta http-equiv="refresh" content="2">' : '';
    echo "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" . e($title) . "</title>$meta"
        . '<link rel="icon" href="data:,"><link rel="stylesheet" href="/assets/default.css">'
        . '<script type="module" src="/assets/pg-checkout/pg-checkout.js"></script></head>'
        . "<body><main><h1>" . e($title) . "</h1>$body</main></body></html>\n";
}

/** The session's order with this reference, or null: another customer's order is nobody's business here. */
function own_order(array $store, string $reference): ?array
{
    $order = $store['orders'][$reference] ?? null;
    return $order !== null && hash_equals($order['session'], session_id()) ? $order : null;
}

if ($method === 'GET' && $path === '/') {
    page('Noise-cancelling headphones', '<p>EGP 2,500.00</p>'
        . '<form method="post" action="/checkout"><button id="buy" type="submit">Check out</button></form>');
    return;
}

if ($method === 'POST' && $path === '/checkout') {
    $reference = 'php-' . bin2hex(random_bytes(6));
    with_store(function (array $store) use ($reference) {
        $store['orders'][$reference] = [
            'merchant_reference' => $reference,
            'amount' => 250000,
            'currency' => 'EGP',
            'description' => 'Noise-cancelling headphones',
            'session' => session_id(),
            // Opaque, per order: the element sends it back, the service passes it on, we compare it.
            'token' => bin2hex(random_bytes(24)),
        ];
        return $store;
    });
    header('Location: /checkout?merchant_reference=' . urlencode($reference), true, 303);
    return;
}

if ($method === 'GET' && $path === '/checkout') {
    $order = own_order(read_store(), (string) ($_GET['merchant_reference'] ?? ''));
    if ($order === null) {
        http_response_code(404);
        page('Order not found', '<p><a href="/">Back to the shop</a></p>');
        return;
    }
    $reference = $order['merchant_reference'];
    $element = ' language="en" endpoint="' . e(service_url()) . '" merchant-reference="' . e($reference) . '"'
        . ' order-token="' . e($order['token']) . '"';
    // Cash: the service issues a bill the customer pays at an outlet; the webhook brings it here too.
    if (($_GET['method'] ?? '') === 'cash') {
        page('Pay in cash', '<p>Order <span id="order-ref">' . e($reference) . '</span></p>'
            . '<pg-bill-voucher' . $element . ' currency="EGP" amount="' . e((string) $order['amount']) . '"></pg-bill-voucher>'
            . '<p><a id="order-page" href="/result?merchant_reference=' . e(urlencode($reference)) . '">Your order</a></p>');
        return;
    }
    // Card on this page: the service writes the element's first screen, a card form that works
    // before the script arrives (and without one), its <style> allowed by this page's nonce.
    if (($_GET['method'] ?? '') === 'card-here') {
        $nonce = base64_encode(random_bytes(16));
        header("Content-Security-Policy: default-src 'self'; script-src 'self'; style-src 'self' 'nonce-$nonce'; img-src 'self' data:; "
            . "connect-src $service; frame-src $gateway $service; form-action 'self' $gateway; base-uri 'self'; frame-ancestors 'none'; object-src 'none'");
        $checkout = first_screen($order, $nonce) ?? '<pg-checkout mode="merchant-page"' . $element . '></pg-checkout>';
        page('Pay by card', '<p>Order <span id="order-ref">' . e($reference) . '</span></p>' . $checkout);
        return;
    }
    page('Checkout', '<p>Order <span id="order-ref">' . e($reference) . '</span></p>'
        . '<pg-checkout mode="redirect"' . $element . '></pg-checkout>'
        . '<p><a id="pay-here" href="/checkout?merchant_reference=' . e(urlencode($reference)) . '&amp;method=card-here">Type your card on this page instead</a></p>'
        . '<p><a id="pay-cash" href="/checkout?merchant_reference=' . e(urlencode($reference)) . '&amp;method=cash">Pay in cash at an outlet instead</a></p>');
    return;
}

/** What the result page says for each state an order can reach: [title, what it means for the customer]. */
const ORDER_PAGES = [
    'captured' => ['Thank you for your order', 'Your payment has been taken.'],
    'partially_refunded' => ['Thank you for your order', 'Your payment has been taken; part of it has been refunded.'],
    'refunded' => ['Order refunded', 'Your payment was taken, then refunded in full.'],
    // Money held, not taken: the merchant captures it before shipping, or the gateway voids it after the hold.
    'authorized' => ['Payment authorized', 'Authorized, capture before shipping: the amount is held on your card, not yet charged.'],
    'voided' => ['Payment not completed', 'The authorization was released: nothing was charged.'],
];

if ($method === 'GET' && $path === '/result') {
    // The query string says which order, never how it went: that comes from the signed webhook,
    // as the order's payment results moved it (a saved card is never one of them).
    $store = read_store();
    $order = own_order($store, (string) ($_GET['merchant_reference'] ?? ''));
    $state = $order['state'] ?? null;
    $result = $state === null ? null : ($store['results'][$order['state_key']] ?? null);
    if ($order === null) {
        http_response_code(404);
        page('Order not found', '<p><a href="/">Back to the shop</a></p>');
    } elseif ($result === null) {
        page('Waiting for the payment result', '<p id="outcome" data-outcome="waiting">This page refreshes by itself.</p>', true);
    } elseif ($state === 'pending' && ($result['source'] ?? '') === 'bill' && isset($result['bill']['bill_number'])) {
        // A cash bill waiting to be paid: shown again from what the webhook stored, with no request.
        $bill = $result['bill'];
        page('Pay your bill', '<p id="outcome" data-outcome="pending" data-state="pending">Pay this bill at an outlet before it expires.</p>'
            . '<pg-bill-voucher language="en" bill-number="' . e($bill['bill_number']) . '"'
            . ' expires="' . e((string) ($bill['request_expiry_date'] ?? '')) . '"'
            . ' payment-partner="' . e((string) ($bill['payment_partner'] ?? '')) . '"'
            . ' amount="' . e((string) ($result['amount'] ?? '')) . '"></pg-bill-voucher>'
            . '<p><a href="/">Back to the shop</a></p>');
    } else {
        $waiting = in_array($state, ['pending', 'unknown'], true);
        [$title, $meaning] = ORDER_PAGES[$state] ?? [$waiting ? 'Payment being confirmed' : 'Payment not completed', (string) $result['response_message']];
        page($title,
            '<p id="outcome" data-outcome="' . e((string) $result['outcome']) . '" data-state="' . e($state) . '">' . e($meaning) . '</p>'
            . '<dl><dt>Order</dt><dd>' . e($order['merchant_reference']) . '</dd><dt>Gateway code</dt><dd id="response-code">'
            . e((string) $result['response_code']) . '</dd><dt>Payment ID</dt><dd id="payment-id">' . e((string) ($result['svc_id'] ?? ''))
            . '</dd><dt>State</dt><dd id="order-state">' . e($state) . '</dd></dl>'
            . '<p><a href="/">Back to the shop</a></p>', $waiting);
    }
    return;
}

http_response_code(404);
page('Not found', '<p><a href="/">Back to the shop</a></p>');
