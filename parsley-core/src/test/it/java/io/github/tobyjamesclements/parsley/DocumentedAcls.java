package io.github.tobyjamesclements.parsley;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The {@code kafka-acls.sh} commands of docs/security.md as ACL bindings, so that the broker
 * tests grant exactly what the page tells an operator to grant. Each command (a line, or a
 * {@code for t in $LIST; do …; done} loop over one) is one {@link Line}; {@code $VARIABLES} take the
 * values the test gives. A command with a flag this reader does not understand, or a variable the
 * test does not set, fails the test rather than being skipped. Public for the starter's
 * secured-broker tests, which reach it through this module's test jar.
 */
public final class DocumentedAcls {

    /** One documented command: its text and the bindings it grants with the test's values. */
    record Line(String text, List<AclBinding> bindings) {

        @Override
        public String toString() {
            return text;
        }
    }

    private static final Pattern LOOP = Pattern.compile("for (\\w+) in ([^;]*); do (.*); done");
    private static final Pattern VARIABLE = Pattern.compile("\\$(\\w+)");

    private DocumentedAcls() {
    }

    /** The page's variables for one Parsley application: its principal, id and topics. */
    static Map<String, String> applicationVariables(String user, String applicationId, List<String> sources,
            List<String> sinks, List<String> upstream) {
        return applicationVariables(SecureKafka.bootstrap(), user, applicationId, sources, sinks, upstream);
    }

    /**
     * Every binding the page grants a Parsley application's principal, on a broker at
     * {@code bootstrap}, with no upstream topics.
     */
    public static List<AclBinding> applicationBindings(String bootstrap, String user, String applicationId,
            List<String> sources, List<String> sinks) {
        return application(applicationVariables(bootstrap, user, applicationId, sources, sinks, List.of())).stream()
                .flatMap(l -> l.bindings().stream()).toList();
    }

    private static Map<String, String> applicationVariables(String bootstrap, String user, String applicationId,
            List<String> sources, List<String> sinks, List<String> upstream) {
        return Map.of("BOOTSTRAP", bootstrap, "ADMIN_CONFIG", "admin-client.properties",
                "APP_USER", "User:" + user, "APP", applicationId, "SOURCES", String.join(" ", sources),
                "SINKS", String.join(" ", sinks), "UPSTREAM", String.join(" ", upstream));
    }

    /** The page's variables for one producer stamping with {@code CausalClock}. */
    static Map<String, String> producerVariables(String user, List<String> writes, List<String> reads,
            String transactionalId) {
        return Map.of("BOOTSTRAP", SecureKafka.bootstrap(), "ADMIN_CONFIG", "admin-client.properties",
                "PRODUCER_USER", "User:" + user, "PRODUCER_WRITES", String.join(" ", writes),
                "PRODUCER_READS", String.join(" ", reads), "PRODUCER_TRANSACTIONAL_ID", transactionalId);
    }

    /** Every documented command granting to {@code $APP_USER}: a Parsley application's ACLs. */
    static List<Line> application(Map<String, String> variables) {
        return lines("$APP_USER", variables);
    }

    /** Every documented command granting to {@code $PRODUCER_USER}: a {@code CausalClock} producer's ACLs. */
    static List<Line> producer(Map<String, String> variables) {
        return lines("$PRODUCER_USER", variables);
    }

    /** The raw commands granting to a principal variable, in page order. */
    static List<String> commands(String principalVariable) {
        return commands().stream().filter(c -> c.contains("\"" + principalVariable + "\"")).toList();
    }

    private static List<Line> lines(String principalVariable, Map<String, String> variables) {
        return commands(principalVariable).stream().map(c -> new Line(c, bindings(c, variables))).toList();
    }

    /** Every kafka-acls.sh command in the page's sh blocks, continuation lines joined. */
    static List<String> commands() {
        List<String> out = new ArrayList<>();
        boolean inShell = false;
        StringBuilder pending = new StringBuilder();
        for (String line : page()) {
            if (line.startsWith("```")) {
                inShell = line.equals("```sh");
                continue;
            }
            if (!inShell) {
                continue;
            }
            pending.append(line.strip());
            if (line.endsWith("\\")) {
                pending.setLength(pending.length() - 1);
                pending.append(' ');
                continue;
            }
            String command = pending.toString();
            pending.setLength(0);
            if (command.startsWith("kafka-acls.sh") || command.startsWith("for ")) {
                out.add(command);
            }
        }
        return out;
    }

    private static List<String> page() {
        Path doc = Files.exists(Path.of("../docs/security.md")) ? Path.of("../docs/security.md")
                : Path.of("docs/security.md");
        try {
            return Files.readAllLines(doc);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + doc.toAbsolutePath(), e);
        }
    }

    private static List<AclBinding> bindings(String command, Map<String, String> variables) {
        Matcher loop = LOOP.matcher(command);
        if (!loop.matches()) {
            return parse(command, variables);
        }
        List<AclBinding> out = new ArrayList<>();
        for (String item : words(substitute(loop.group(2), variables))) {
            out.addAll(parse(loop.group(3).replace("$" + loop.group(1), item), variables));
        }
        return out;
    }

    private static String substitute(String text, Map<String, String> variables) {
        Matcher m = VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = variables.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException("docs/security.md uses $" + m.group(1) + ", which this test"
                        + " does not set; command: " + text);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static List<String> words(String text) {
        return Arrays.stream(text.strip().split("\\s+")).filter(w -> !w.isEmpty()).toList();
    }

    private static List<AclBinding> parse(String command, Map<String, String> variables) {
        List<String> tokens = words(substitute(command, variables)).stream()
                .map(t -> t.replaceAll("^[\"']|[\"']$", "")).toList();
        if (!tokens.get(0).equals("kafka-acls.sh") || !tokens.contains("--add")) {
            throw new IllegalArgumentException("Not a kafka-acls.sh --add command: " + command);
        }
        String principal = null;
        PatternType pattern = PatternType.LITERAL;
        List<AclOperation> operations = new ArrayList<>();
        List<ResourcePattern> resources = new ArrayList<>();
        List<String[]> named = new ArrayList<>();
        for (int i = 1; i < tokens.size(); i++) {
            String flag = tokens.get(i);
            switch (flag) {
                case "--add" -> { }
                case "--cluster" -> resources.add(new ResourcePattern(ResourceType.CLUSTER, "kafka-cluster",
                        PatternType.LITERAL));
                case "--bootstrap-server", "--command-config" -> i++;
                case "--allow-principal" -> principal = tokens.get(++i);
                case "--operation" -> operations.add(operation(tokens.get(++i)));
                case "--resource-pattern-type" -> pattern = patternType(tokens.get(++i));
                case "--topic", "--group", "--transactional-id" -> named.add(new String[] {flag, tokens.get(++i)});
                default -> throw new IllegalArgumentException("Flag " + flag + " of docs/security.md is not"
                        + " understood by this test; command: " + command);
            }
        }
        for (String[] n : named) {
            resources.add(new ResourcePattern(resourceType(n[0]), n[1], pattern));
        }
        List<AclBinding> out = new ArrayList<>();
        for (ResourcePattern r : resources) {
            for (AclOperation op : operations) {
                out.add(new AclBinding(r, new AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW)));
            }
        }
        return out;
    }

    private static PatternType patternType(String name) {
        PatternType type = PatternType.fromString(name.toUpperCase(Locale.ROOT));
        if (!type.isSpecific()) {
            throw new IllegalArgumentException("Not a pattern type to add ACLs with: " + name);
        }
        return type;
    }

    private static ResourceType resourceType(String flag) {
        return switch (flag) {
            case "--topic" -> ResourceType.TOPIC;
            case "--group" -> ResourceType.GROUP;
            default -> ResourceType.TRANSACTIONAL_ID;
        };
    }

    /** {@code DescribeConfigs} → {@link AclOperation#DESCRIBE_CONFIGS}, as kafka-acls.sh spells operations. */
    private static AclOperation operation(String name) {
        return Arrays.stream(AclOperation.values()).filter(op -> op != AclOperation.UNKNOWN)
                .filter(op -> op.name().replace("_", "").equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown ACL operation " + name));
    }
}
