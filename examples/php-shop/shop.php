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

// ---- Orders and results: one JSON file, replaced whole under a lock ----

/** Runs $run with the store's file name, holding the store's lock (LOCK_SH to read, LOCK_EX to change). */
function with_store_lock(int $mode, callable $run): mixed
{
    $dir = setting('SHOP_DATA_DIR', sys_get_temp_dir() . '/pg-php-shop');
    if (!is_dir($dir)) mkdir($dir, 0700, true);
    // The lock is a file of its own: store.json is replaced by a rename, so a lock on it would be
    // held on a file that is no longer the store.
    $lock = fopen("$dir/store.lock", 'c');
    flock($lock, $mode);
    try {
        return $run("$dir/store.json");
    } finally {
        flock($lock, LOCK_UN);
        fclose($lock);
    }
}

function load_store(string $file): array
{
    $text = is_file($file) ? file_get_contents($file) : '';
    // A store that cannot be read stops here: saving over it would lose every order.
    $store = $text === '' ? [] : json_decode((string) $text, true, 512, JSON_THROW_ON_ERROR);
    return $store + ['orders' => [], 'results' => []];
}

/**
 * Runs $change on the store under an exclusive lock and saves what it returns as the store (null:
 * nothing changed, nothing written). The new store is written to a temporary file, flushed to disk
 * and renamed over the old one, so a crash mid-write leaves the previous store whole.
 */
function with_store(callable $change): array
{
    return with_store_lock(LOCK_EX, function (string $file) use ($change): array {
        $store = load_store($file);
        $changed = $change($store);
        if ($changed === null) return $store;
        $temporary = tempnam(dirname($file), 'store.json.');
        $handle = fopen($temporary, 'w');
        $text = json_encode($changed, JSON_PRETTY_PRINT | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR);
        $written = fwrite($handle, $text) === strlen($text) && fflush($handle) && fsync($handle);
        fclose($handle);
        if (!$written || !rename($temporary, $file)) {
            @unlink($temporary);
            throw new RuntimeException('the store could not be saved');
        }
        return $changed;
    });
}

/** The store as it is: read under a shared lock, never written. */
function read_store(): array
{
    return with_store_lock(LOCK_SH, fn (string $file) => load_store($file));
}

// ---- How an order stands: the order_state of its payment results, moved forward only ----

/**
 * Where an order may still go once money is held or taken (the gateway's lifecycle): a capture, a
 * refund or a void is a later move; a failure, a pending attempt or a replay never takes it back.
 * From any other state (none yet, pending, failed, voided: nothing held) every move is allowed, so
 * the customer may pay again after a decline or an authorization released.
 */
const FORWARD_MOVES = [
    'authorized' => ['captured', 'partially_refunded', 'refunded', 'voided'],
    'captured' => ['partially_refunded', 'refunded'],
    'partially_refunded' => ['refunded'],
    'refunded' => [],
];

/** States in which money has been taken: a refund only ever follows a capture. An authorization is only a hold. */
const CAPTURED_STATES = ['captured', 'partially_refunded', 'refunded'];

function moves_forward(?string $from, string $to): bool
{
    return $from === null || $from === $to || !isset(FORWARD_MOVES[$from]) || in_array($to, FORWARD_MOVES[$from], true);
}

/**
 * The order after one payment result: its state moves forward only, and `paid` (money taken, ship
 * it) is set by a capture and never taken back; a later refund shows in `state`.
 */
function apply_payment_result(array $order, array $result): array
{
    $state = (string) $result['order_state'];
    if (!moves_forward($order['state'] ?? null, $state)) return $order;
    $order['state'] = $state;
    $order['state_key'] = $result['idempotency_key'];
    if (in_array($state, CAPTURED_STATES, true)) $order['paid'] = true;
    return $order;
}

/** True while the order holds an authorization or was paid: the service must sign no second payment for it. */
function holds_payment(array $order): bool
{
    return ($order['paid'] ?? false) || ($order['state'] ?? null) === 'authorized';
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

/**
 * `<pg-checkout>` with its first screen, written by the service for this order (POST
 * {service}/first-screen, the order's token proving it is this customer's); null when the service
 * cannot answer, and the page then gives the plain element, which draws its form with its script.
 */
function first_screen(array $order, string $nonce): ?string
{
    $body = json_encode([
        'merchant_reference' => $order['merchant_reference'],
        'language' => 'en',
        'endpoint' => service_url(),
        'mode' => 'merchant-page',
        'style_nonce' => $nonce,
    ]);
    $context = stream_context_create(['http' => [
        'method' => 'POST',
        'header' => "Content-Type: application/json\r\npg-order-token: {$order['token']}\r\n",
        'content' => $body,
        'timeout' => 3,
        'ignore_errors' => true,
    ]]);
    $answer = @file_get_contents(service_url() . '/first-screen', false, $context);
    $html = $answer === false ? null : (json_decode($answer, true)['html'] ?? null);
    return is_string($html) ? $html : null;
}
