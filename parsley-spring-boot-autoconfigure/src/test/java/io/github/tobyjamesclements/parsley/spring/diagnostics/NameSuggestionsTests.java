package io.github.tobyjamesclements.parsley.spring.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tests for {@link NameSuggestions}: the distance counts each kind of edit once, and only close
 * names are suggested.
 */
class NameSuggestionsTests {

    private static final List<String> TOPICS = List.of("orders", "payments", "balances", "notifications");

    @Test
    void distanceCountsEachEditOnce() {
        assertThat(NameSuggestions.distance("payments", "payments")).isZero();
        assertThat(NameSuggestions.distance("payment", "payments")).isEqualTo(1);
        assertThat(NameSuggestions.distance("paymentss", "payments")).isEqualTo(1);
        assertThat(NameSuggestions.distance("paymants", "payments")).isEqualTo(1);
        assertThat(NameSuggestions.distance("paymnets", "payments")).isEqualTo(1);
        assertThat(NameSuggestions.distance("", "abc")).isEqualTo(3);
        assertThat(NameSuggestions.distance("kitten", "sitting")).isEqualTo(3);
    }

    @Test
    void suggestsTheClosestDeclaredName() {
        assertThat(NameSuggestions.closest("payment", TOPICS)).contains("payments");
        assertThat(NameSuggestions.closest("paymnets", TOPICS)).contains("payments");
        assertThat(NameSuggestions.closest("Orders", TOPICS)).contains("orders");
        assertThat(NameSuggestions.closest("balanecs", TOPICS)).contains("balances");
    }

    @Test
    void suggestsNothingFarOrAlreadyDeclared() {
        assertThat(NameSuggestions.closest("refunds", TOPICS)).isEmpty();
        assertThat(NameSuggestions.closest("pay", TOPICS)).isEmpty();
        assertThat(NameSuggestions.closest("orders", TOPICS)).isEmpty();
        assertThat(NameSuggestions.closest("orders", List.of())).isEmpty();
    }

    @Test
    void allowsMoreEditsForLongerNames() {
        assertThat(NameSuggestions.closest("notifcatoins", TOPICS)).contains("notifications");
        assertThat(NameSuggestions.closest("ordrs", List.of("orders"))).contains("orders");
        assertThat(NameSuggestions.closest("odrs", List.of("orders"))).isEmpty();
    }

    @Test
    void breaksTiesAlphabetically() {
        assertThat(NameSuggestions.closest("cat", List.of("cot", "bat"))).contains("bat");
        assertThat(NameSuggestions.closest("cat", List.of("bat", "cot"))).contains("bat");
    }
}
