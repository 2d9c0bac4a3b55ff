<?php
// The two hooks pg-checkout serve calls, both signed with PG_HOOK_SECRET (shop.php checks it):
// POST /pg-hooks/order   (PG_ORDER_URL)          answers the order, for its owner only;
// POST /pg-hooks/result  (PG_RESULT_WEBHOOK_URL) stores a verified result once per idempotency key
//                                                and moves its order forward (shop.php).
declare(strict_types=1);

function order_lookup_hook(): void
{
    $body = signed_request_body();
    if ($body === null) return;
    $lookup = json_decode($body, true);
    if (($lookup['type'] ?? '') !== 'order_lookup') {
        json_answer(400, ['error' => 'not an order lookup']);
        return;
    }
    $order = read_store()['orders'][$lookup['merchant_reference'] ?? ''] ?? null;
    // The browser named the reference: answer only for the customer this shop gave the order's token.
    // A reference from the gateway's verified return is answered whoever asks.
    $owner = ($lookup['reference_source'] ?? '') === 'gateway'
        || ($order !== null && hash_equals($order['token'], (string) ($lookup['headers']['pg-order-token'] ?? '')));
    if ($order === null || !$owner) {
        json_answer(404, ['error' => 'unknown order']);
        return;
    }
    json_answer(200, [
        'merchant_reference' => $order['merchant_reference'],
        'amount' => $order['amount'],          // minor units: 250000 is EGP 2,500.00
        'currency' => $order['currency'],
        'description' => $order['description'],
        // "Sign nothing more": true while an authorization holds the money, as once it is captured.
        'paid' => holds_payment($order),
    ]);
}

function result_webhook_hook(): void
{
    $body = signed_request_body();
    if ($body === null) return;
    $message = json_decode($body, true);
    $result = $message['result'] ?? null;
    $type = $message['type'] ?? '';
    // The type and the result's kind must agree: a saved card (kind saved_card) charged nothing and
    // never pays an order, whatever its outcome. A payment result of an older service has no kind.
    $kind = $result['kind'] ?? ($type === 'payment_result' ? 'payment' : null);
    $expected = ['payment_result' => 'payment', 'saved_card' => 'saved_card'][$type] ?? '';
    if (!is_array($result) || $kind !== $expected || !isset($result['idempotency_key'], $result['merchant_reference'], $result['order_state'])) {
        json_answer(400, ['error' => 'not a result']);
        return;
    }
    // One record per idempotency key: a result sent again (the service retrying) changes nothing.
    with_store(function (array $store) use ($result, $type) {
        $key = $result['idempotency_key'];
        if (isset($store['results'][$key])) return null;
        $store['results'][$key] = ['type' => $type] + $result + ['received_at' => gmdate('c')];
        $reference = $result['merchant_reference'];
        if ($type === 'payment_result' && isset($store['orders'][$reference])) {
            // Paid only once the money is captured: an authorization is a hold, voided unless captured.
            $store['orders'][$reference] = apply_payment_result($store['orders'][$reference], $result);
        }
        if ($type === 'saved_card' && isset($result['saved_card']['token_name'])) {
            // A token for the customer's later payments (a real shop keeps it with the customer).
            $store['saved_cards'][$reference] = $result['saved_card'];
        }
        return $store;
    });
    json_answer(200, ['stored' => $result['idempotency_key']]);
}
