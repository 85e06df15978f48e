package com.example.consumer;

record PaymentConfirmed(String orderId, long amount) {
}
