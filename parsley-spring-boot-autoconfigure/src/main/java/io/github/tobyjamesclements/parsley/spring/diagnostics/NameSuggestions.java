package io.github.tobyjamesclements.parsley.spring.diagnostics;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * Suggests the declared name a mistyped one most likely meant, by edit distance (insertions,
 * deletions, substitutions and swaps of adjacent characters, ignoring case). A name is suggested
 * only when it is close: at most one edit for names up to four characters, then one more per four
 * characters, so that short unrelated names are never proposed.
 */
final class NameSuggestions {

    private NameSuggestions() {
    }

    /**
     * The closest candidate, if any is close enough; ties go to the alphabetically first.
     *
     * @param name the name as written
     * @param candidates the declared names
     * @return the suggestion, or empty when none is close or {@code name} is itself a candidate
     */
    static Optional<String> closest(String name, Collection<String> candidates) {
        if (candidates.contains(name)) {
            return Optional.empty();
        }
        int limit = Math.max(1, name.length() / 4);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int d = distance(name.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
            if (d <= limit && (d < bestDistance || d == bestDistance && candidate.compareTo(best) < 0)) {
                best = candidate;
                bestDistance = d;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Optimal string alignment distance: Levenshtein plus the swap of two adjacent characters. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int best = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    best = Math.min(best, d[i - 2][j - 2] + 1);
                }
                d[i][j] = best;
            }
        }
        return d[a.length()][b.length()];
    }
}
