package io.github.tobyjamesclements.parsley.docs.shop;

// tag::balance-controller[]
import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.CausalToken;
import io.github.tobyjamesclements.parsley.StateRead;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

@RestController
@ConditionalOnBooleanProperty(name = "parsley.streams.enabled", matchIfMissing = true) // none in @ParsleyTest
class BalanceController {

    private final CausalStreams streams;

    BalanceController(CausalStreams streams) {
        this.streams = streams;
    }

    @GetMapping("/balances/{customer}")
    ResponseEntity<Balance> balance(@PathVariable String customer,
            @RequestHeader(name = "Parsley-Token", required = false) String token) {
        CausalToken after = token == null ? CausalToken.empty() : CausalToken.parse(token);
        StateRead<Balance> read = streams.read("balances", customer, after, Duration.ofSeconds(5));
        if (read instanceof StateRead.Found<Balance> found) {
            return ResponseEntity.ok().header("Parsley-Token", found.token().toString()).body(found.value());
        }
        if (read instanceof StateRead.Absent<Balance> absent) {
            return ResponseEntity.notFound().header("Parsley-Token", absent.token().toString()).build();
        }
        // Elsewhere: another instance owns the customer (its host and port are in the answer);
        // NotReady: not caught up within the wait, or no owner during a rebalance.
        return ResponseEntity.status(503).header("Retry-After", "1").build();
    }
}
// end::balance-controller[]
