package io.github.tobyjamesclements.parsley.docs;

/**
 * A topic group's offset difference computed by hand, as docs/wire-format.md ("Offset
 * differences") shows it to implementers in other languages.
 */
final class OffsetDifferenceExample {

    private OffsetDifferenceExample() {
    }

    /** The zigzagged difference of {@code offset} after {@code previous}, and the offset read back from it. */
    static long[] zigzagAndBack(long previous, long offset) {
        // tag::offset-difference[]
        long d = ((offset - previous) << 1) >> 1;                 // the difference, sign-extended from 63 bits
        long z = (d << 1) ^ (d >> 63);
        long back = (previous + ((z >>> 1) ^ -(z & 1))) & Long.MAX_VALUE;
        // end::offset-difference[]
        return new long[] {z, back};
    }
}
