package io.github.tobyjamesclements.parsley;

import java.util.Arrays;
import java.util.Map;

/**
 * One kind of claim of a {@link VectorClock}: keys in ascending order with a watermark each, in
 * two parallel arrays. Absent keys read {@link VectorClock#NOTHING}.
 *
 * <p>Built for what clocks do per record: a decoder appends keys in order (amortised constant
 * time), a merge into an empty clock is two array copies, a merge of clocks over the same keys
 * raises in place and allocates nothing, and a lookup is a binary search. An insert in the middle
 * shifts the tail, which is cheap at the sizes a clock has (a task's channels, not a cluster's).
 *
 * <p>Mutable and not thread-safe; callers validate watermarks before raising.
 */
final class SortedClaims<K extends Comparable<K>> {

    private static final Comparable<?>[] NO_KEYS = {};
    private static final long[] NO_VALUES = {};

    // the keys' erasure, not Object[]: a cast to Comparable on every read cost the step 7-10% (StepBenchmark)
    private Comparable<?>[] keys;
    private long[] values;
    private int size;

    SortedClaims() {
        keys = NO_KEYS;
        values = NO_VALUES;
    }

    private SortedClaims(Comparable<?>[] keys, long[] values, int size) {
        this.keys = keys;
        this.values = values;
        this.size = size;
    }

    /** A copy with room for {@code more} further keys. */
    SortedClaims<K> copy(int more) {
        return size + more == 0 ? new SortedClaims<>()
                : new SortedClaims<>(Arrays.copyOf(keys, size + more), Arrays.copyOf(values, size + more), size);
    }

    /**
     * Makes these claims equal to {@code other}'s, keeping this one's arrays when they hold {@code
     * other}'s keys and {@code more} besides; the keys past the new size are cleared, not kept alive.
     */
    void setTo(SortedClaims<K> other, int more) {
        int n = other.size;
        if (keys.length < n + more) {
            keys = new Comparable<?>[n + more];
            values = new long[n + more];
        } else if (size > n) {
            Arrays.fill(keys, n, size, null);
        }
        System.arraycopy(other.keys, 0, keys, 0, n);
        System.arraycopy(other.values, 0, values, 0, n);
        size = n;
    }

    int size() {
        return size;
    }

    @SuppressWarnings("unchecked")
    K key(int i) {
        return (K) keys[i];
    }

    long value(int i) {
        return values[i];
    }

    long get(K key) {
        int i = indexOf(key);
        return i >= 0 ? values[i] : VectorClock.NOTHING;
    }

    /** Raises {@code key}'s watermark to at least {@code value}. */
    void raise(K key, long value) {
        int i = indexOf(key);
        if (i < 0) {
            insertAt(-i - 1, key, value);
        } else if (values[i] < value) {
            values[i] = value;
        }
    }

    /** Raises {@code key}'s watermark by one, an absent one to 0; {@link VectorClock#NOTHING} at {@code Long.MAX_VALUE}. */
    long increment(K key) {
        int i = indexOf(key);
        if (i < 0) {
            insertAt(-i - 1, key, 0);
            return 0;
        }
        if (values[i] == Long.MAX_VALUE) {
            return VectorClock.NOTHING;
        }
        return ++values[i];
    }

    /**
     * Raises every watermark to at least {@code other}'s (pointwise max); keys are shared, not copied.
     *
     * @return whether any watermark rose or any key was added
     */
    boolean raiseAll(SortedClaims<K> other) {
        int n = other.size;
        if (n == 0) {
            return false;
        }
        if (size == 0) {
            // into the room a sized copy left (the stamp's), else into arrays of the other's length
            if (keys.length < n) {
                keys = new Comparable<?>[n];
                values = new long[n];
            }
            System.arraycopy(other.keys, 0, keys, 0, n);
            System.arraycopy(other.values, 0, values, 0, n);
            size = n;
            return true;
        }
        int added = 0;
        boolean rose = false;
        int i = 0;
        for (int j = 0; j < n; j++) {
            K k = other.key(j);
            i = seek(i, k);
            if (i < size && key(i).compareTo(k) == 0) {
                if (values[i] < other.values[j]) {
                    values[i] = other.values[j];
                    rose = true;
                }
            } else {
                added++;
            }
        }
        if (added > 0) {
            mergeNew(other, added);
        }
        return rose || added > 0;
    }

    /**
     * The first index at or after {@code from} whose key is not below {@code k}, found by galloping:
     * a record's few claims folded into a channel clock of hundreds (a re-keyed topic's, §10.2) cost
     * a few short searches instead of a walk over the clock; adjacent keys cost a comparison or two.
     */
    private int seek(int from, K k) {
        if (from >= size || key(from).compareTo(k) >= 0) {
            return from;
        }
        int lo = from; // below k; hi is the size or a key not below k
        int hi = from + 1;
        for (int step = 1; hi < size && key(hi).compareTo(k) < 0; step <<= 1) {
            lo = hi;
            hi = Math.min(size, lo + step);
        }
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (key(mid).compareTo(k) < 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /**
     * Merges in the {@code added} keys of {@code other} this lacks; shared keys were raised already.
     * From the back, so that with room to spare the merge runs in place: a key of this is only ever
     * moved to a slot at or after its own.
     */
    private void mergeNew(SortedClaims<K> other, int added) {
        int total = size + added;
        boolean inPlace = keys.length >= total;
        Comparable<?>[] mk = inPlace ? keys : new Comparable<?>[total];
        long[] mv = inPlace ? values : new long[total];
        int i = size - 1;
        int j = other.size - 1;
        int out = total - 1;
        while (j >= 0) {
            int cmp = i < 0 ? -1 : key(i).compareTo(other.key(j));
            if (cmp >= 0) {
                mk[out] = keys[i];
                mv[out--] = values[i--];
                j -= cmp == 0 ? 1 : 0;
            } else {
                mk[out] = other.keys[j];
                mv[out--] = other.values[j--];
            }
        }
        if (!inPlace) {
            System.arraycopy(keys, 0, mk, 0, i + 1);
            System.arraycopy(values, 0, mv, 0, i + 1);
        }
        keys = mk;
        values = mv;
        size = total;
    }

    /** Removes {@code key}; absent keys are ignored. */
    void remove(K key) {
        int i = indexOf(key);
        if (i >= 0) {
            removeRange(i, i + 1);
        }
    }

    /** Removes the keys at indices {@code [from, to)}. */
    void removeRange(int from, int to) {
        System.arraycopy(keys, to, keys, from, size - to);
        System.arraycopy(values, to, values, from, size - to);
        Arrays.fill(keys, size - (to - from), size, null);
        size -= to - from;
    }

    /**
     * Removes every entry whose watermark is at or below {@code bound}'s on the same key.
     *
     * @return whether anything was removed
     */
    boolean removeAtOrBelow(SortedClaims<K> bound) {
        int kept = 0;
        for (int i = 0; i < size; i++) {
            if (values[i] > bound.get(key(i))) {
                keys[kept] = keys[i];
                values[kept++] = values[i];
            }
        }
        boolean removed = kept < size;
        Arrays.fill(keys, kept, size, null);
        size = kept;
        return removed;
    }

    /** The entries into {@code map}, boxed: for views and messages, never on a record's path. */
    <M extends Map<K, Long>> M toMap(M map) {
        for (int i = 0; i < size; i++) {
            map.put(key(i), values[i]);
        }
        return map;
    }

    /** The index of {@code key}, or {@code -(insertion point) - 1}; an append checks the last key first. */
    private int indexOf(K key) {
        if (size == 0) {
            return -1;
        }
        int last = key(size - 1).compareTo(key);
        if (last <= 0) {
            return last == 0 ? size - 1 : -size - 1;
        }
        int lo = 0;
        int hi = size - 2;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int cmp = key(mid).compareTo(key);
            if (cmp < 0) {
                lo = mid + 1;
            } else if (cmp > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -lo - 1;
    }

    private void insertAt(int at, K key, long value) {
        if (size == keys.length) {
            int capacity = Math.max(4, size * 2);
            keys = Arrays.copyOf(keys, capacity);
            values = Arrays.copyOf(values, capacity);
        }
        System.arraycopy(keys, at, keys, at + 1, size - at);
        System.arraycopy(values, at, values, at + 1, size - at);
        keys[at] = key;
        values[at] = value;
        size++;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SortedClaims<?> other && size == other.size
                && Arrays.equals(keys, 0, size, other.keys, 0, size)
                && Arrays.equals(values, 0, size, other.values, 0, size);
    }

    @Override
    public int hashCode() {
        int h = size;
        for (int i = 0; i < size; i++) {
            h = 31 * h + keys[i].hashCode();
            h = 31 * h + Long.hashCode(values[i]);
        }
        return h;
    }
}
