package io.github.tobyjamesclements.parsley;

import java.util.UUID;

/**
 * A record's stamp (protocol.md §6.1): its dependency clock and its sender tag, as a header
 * carries it. The single stamping site encodes one for every outbound record
 * ({@code CausalNode.encodeSend}); {@link ClockCodec#decodeStamp} reads one from a header, where a
 * plain client's stamp is untagged (sender null, seq −1). The clock belongs to the caller.
 */
record SendStamp(VectorClock clock, UUID sender, long seq) {
}
