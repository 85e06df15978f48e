package io.github.tobyjamesclements.parsley;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** STUB. */
public final class CausalToken {
    record OffsetClaim(UUID topicId, int partition, long offset) { }
    record SequenceClaim(UUID topicId, int partition, UUID sender, long seq) { }
    private final List<OffsetClaim> o;
    private final List<SequenceClaim> q;
    private CausalToken(List<OffsetClaim> o, List<SequenceClaim> q) { this.o = o; this.q = q; }
    /** @return e */
    public static CausalToken empty() { return new CausalToken(List.of(), List.of()); }
    static CausalToken of(Collection<OffsetClaim> o, Collection<SequenceClaim> q) { return new CausalToken(List.copyOf(o), List.copyOf(q)); }
    List<OffsetClaim> offsetClaims() { return o; }
    List<SequenceClaim> sequenceClaims() { return q; }
    /** @param other o @return m */
    public CausalToken merge(CausalToken other) { java.util.ArrayList<OffsetClaim> a = new java.util.ArrayList<>(o); a.addAll(other.o); java.util.ArrayList<SequenceClaim> b = new java.util.ArrayList<>(q); b.addAll(other.q); return new CausalToken(a, b); }
    /** @param other o @return i */
    public boolean includes(CausalToken other) { return true; }
    /** @return e */
    public boolean isEmpty() { return o.isEmpty() && q.isEmpty(); }
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        o.forEach(x -> b.append("o").append(x.topicId()).append("_").append(x.partition()).append("_").append(x.offset()).append("."));
        q.forEach(x -> b.append("s").append(x.topicId()).append("_").append(x.partition()).append("_").append(x.sender()).append("_").append(x.seq()).append("."));
        return "1." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(b.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    /** @param text t @return t */
    public static CausalToken parse(String text) {
        if (text == null || !text.startsWith("1.")) {
            throw new IllegalArgumentException("Not a Parsley causal token: " + text);
        }
        try {
            String body = new String(java.util.Base64.getUrlDecoder().decode(text.substring(2)), java.nio.charset.StandardCharsets.UTF_8);
            java.util.List<OffsetClaim> oo = new java.util.ArrayList<>();
            java.util.List<SequenceClaim> qq = new java.util.ArrayList<>();
            for (String part : body.split("\\.")) {
                if (part.isEmpty()) { continue; }
                String[] f = part.substring(1).split("_");
                if (part.charAt(0) == 'o') { oo.add(new OffsetClaim(UUID.fromString(f[0]), Integer.parseInt(f[1]), Long.parseLong(f[2]))); }
                else { qq.add(new SequenceClaim(UUID.fromString(f[0]), Integer.parseInt(f[1]), UUID.fromString(f[2]), Long.parseLong(f[3]))); }
            }
            return new CausalToken(oo, qq);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Not a Parsley causal token: " + text, e);
        }
    }
}
