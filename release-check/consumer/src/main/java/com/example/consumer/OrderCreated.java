package com.example.consumer;

record OrderCreated(String orderId, long amount) {
}
