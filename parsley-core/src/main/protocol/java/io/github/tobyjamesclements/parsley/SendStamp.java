package io.github.tobyjamesclements.parsley;

import java.util.UUID;

/**
 * What the single stamping site gives one outbound record (protocol.md §6.1): its dependency
 * clock and its sender tag. The clock belongs to the caller.
 */
record SendStamp(VectorClock clock, UUID sender, long seq) {
}
