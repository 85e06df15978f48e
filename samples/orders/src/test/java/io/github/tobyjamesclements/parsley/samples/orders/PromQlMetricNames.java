package io.github.tobyjamesclements.parsley.samples.orders;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression (or a Grafana query) reads: a tokenizer, not a parser. It
 * drops string literals, Grafana variables ({@code $stage}, {@code ${stage}}, {@code
 * $__rate_interval}), label matchers in braces, ranges and subqueries in brackets, and the label
 * lists of {@code by}, {@code without}, {@code on}, {@code ignoring}, {@code group_left} and
 * {@code group_right}; of the identifiers left, a name followed by an opening parenthesis is a
 * function or an aggregation, so is a name followed by {@code by} or {@code without}, and a keyword is an operator, and everything else is a metric name.
 * Grafana's {@code label_values(metric, label)} reads its first argument only. It refuses nothing:
 * an expression it misreads yields a name the application does not export, which fails the check.
 */
final class PromQlMetricNames {

    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without",
            "on", "ignoring", "group_left", "group_right", "inf", "nan", "atan2");
    private static final Set<String> LABEL_LISTS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right");
    private static final Pattern STRINGS = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern VARIABLES = Pattern.compile("\\$\\{[^}]*}|\\$\\w+");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\s*\\(\\s*([^,)]*)[^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_:][A-Za-z0-9_:]*");

    private PromQlMetricNames() {
    }

    static Set<String> of(String expression) {
        String e = LABEL_VALUES.matcher(expression).replaceAll(m -> Matcher.quoteReplacement(m.group(1)));
        e = STRINGS.matcher(e).replaceAll(" ");
        e = VARIABLES.matcher(e).replaceAll(" ");
        e = without(e, '{', '}');
        e = without(e, '[', ']');
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(e);
        int from = 0;
        while (from < e.length() && m.find(from)) {
            String word = m.group();
            int after = skipSpaces(e, m.end());
            boolean call = after < e.length() && e.charAt(after) == '(' || aggregatesBy(e, after);
            from = m.end();
            if (LABEL_LISTS.contains(word) && call) {
                from = closing(e, after) + 1;
            } else if (!call && !KEYWORDS.contains(word.toLowerCase()) && !isNumberSuffix(e, m.start())) {
                names.add(word);
            }
        }
        return names;
    }

    /** {@code e} with every span from {@code open} to its {@code close} blanked out. */
    private static String without(String e, char open, char close) {
        StringBuilder out = new StringBuilder(e.length());
        int depth = 0;
        for (char c : e.toCharArray()) {
            if (c == open) {
                depth++;
            }
            out.append(depth > 0 ? ' ' : c);
            if (c == close && depth > 0) {
                depth--;
            }
        }
        return out.toString();
    }

    /** Whether {@code by} or {@code without} starts at {@code i}: the word before it is an aggregation. */
    private static boolean aggregatesBy(String e, int i) {
        Matcher next = IDENTIFIER.matcher(e);
        return next.find(i) && next.start() == i && (next.group().equals("by") || next.group().equals("without"));
    }

    private static int skipSpaces(String e, int i) {
        while (i < e.length() && Character.isWhitespace(e.charAt(i))) {
            i++;
        }
        return i;
    }

    /** The index of the parenthesis closing the one at {@code open}, or the end of {@code e}. */
    private static int closing(String e, int open) {
        int depth = 0;
        for (int i = open; i < e.length(); i++) {
            if (e.charAt(i) == '(') {
                depth++;
            } else if (e.charAt(i) == ')' && --depth == 0) {
                return i;
            }
        }
        return e.length();
    }

    /** Whether the identifier at {@code start} continues a number: the {@code e} of {@code 1e3}. */
    private static boolean isNumberSuffix(String e, int start) {
        return start > 0 && Character.isDigit(e.charAt(start - 1));
    }
}
