package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.config.types.Password;

/**
 * The security settings of a client configuration as an error message may show them: an
 * allowlist of settings that are never secret, plus the SASL user name read from the JAAS
 * configuration. Every secret value is remembered only so that {@link #mask} can hide it if a
 * server's answer ever echoes it.
 */
final class ClientSecurity {

    private static final Pattern JAAS_OPTION = Pattern.compile("(\\w+)\\s*=\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|([^\\s;\"]+))");
    private static final String MASK = "****";
    /** Shorter secrets are not masked: replacing one or two characters would garble the text, not protect it. */
    private static final int SHORTEST_MASKED = 4;

    private final Map<String, String> summary;
    private final List<String> secrets;

    private ClientSecurity(Map<String, String> summary, List<String> secrets) {
        this.summary = summary;
        this.secrets = secrets;
    }

    static ClientSecurity of(Map<String, Object> config) {
        Map<String, String> summary = new LinkedHashMap<>();
        String protocol = text(config.get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG));
        summary.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG,
                protocol == null ? CommonClientConfigs.DEFAULT_SECURITY_PROTOCOL + " (default)" : protocol);
        String upper = protocol == null ? "" : protocol.toUpperCase(Locale.ROOT);
        String jaas = text(config.get(SaslConfigs.SASL_JAAS_CONFIG));
        Map<String, String> options = jaas == null ? Map.of() : jaasOptions(jaas);
        if (upper.startsWith("SASL_")) {
            String mechanism = text(config.get(SaslConfigs.SASL_MECHANISM));
            summary.put(SaslConfigs.SASL_MECHANISM,
                    mechanism == null ? SaslConfigs.DEFAULT_SASL_MECHANISM + " (default)" : mechanism);
            summary.put(SaslConfigs.SASL_JAAS_CONFIG, jaas == null ? "not set" : "set");
            if (options.containsKey("username")) {
                summary.put("user", options.get("username"));
            }
        }
        boolean tls = upper.endsWith("SSL");
        putLocation(summary, config, SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, tls);
        putLocation(summary, config, SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, false);
        if (config.get(SslConfigs.SSL_TRUSTSTORE_CERTIFICATES_CONFIG) != null) {
            summary.put(SslConfigs.SSL_TRUSTSTORE_CERTIFICATES_CONFIG, "set");
        }
        Object engine = config.get(SslConfigs.SSL_ENGINE_FACTORY_CLASS_CONFIG);
        if (engine != null) {
            summary.put(SslConfigs.SSL_ENGINE_FACTORY_CLASS_CONFIG,
                    engine instanceof Class<?> c ? c.getName() : String.valueOf(engine));
        }
        return new ClientSecurity(summary, secrets(config, options));
    }

    /** The settings in a stable order, without secrets. */
    Map<String, String> summary() {
        return summary;
    }

    /** The text with every secret of the configuration replaced. */
    String mask(String text) {
        String masked = text;
        for (String secret : secrets) {
            masked = masked.replace(secret, MASK);
        }
        return masked;
    }

    private static void putLocation(Map<String, String> summary, Map<String, Object> config, String key,
            boolean showAbsence) {
        String location = text(config.get(key));
        if (location != null) {
            summary.put(key, location);
        } else if (showAbsence) {
            summary.put(key, "not set");
        }
    }

    /** The values of settings named as secrets, and every JAAS option value but the user name. */
    private static List<String> secrets(Map<String, Object> config, Map<String, String> jaasOptions) {
        List<String> secrets = new ArrayList<>();
        config.forEach((key, value) -> {
            String k = key.toLowerCase(Locale.ROOT);
            if (value != null && (value instanceof Password || k.contains("password") || k.contains("secret")
                    || k.endsWith(".key") || k.equals(SaslConfigs.SASL_JAAS_CONFIG))) {
                secrets.add(value instanceof Password p ? p.value() : String.valueOf(value));
            }
        });
        jaasOptions.forEach((option, value) -> {
            if (!option.equals("username")) {
                secrets.add(value);
            }
        });
        secrets.removeIf(s -> s.length() < SHORTEST_MASKED);
        // Longest first, so a secret that contains another is masked whole.
        secrets.sort((a, b) -> Integer.compare(b.length(), a.length()));
        return List.copyOf(secrets);
    }

    private static Map<String, String> jaasOptions(String jaas) {
        Map<String, String> options = new LinkedHashMap<>();
        Matcher m = JAAS_OPTION.matcher(jaas);
        while (m.find()) {
            options.put(m.group(1), m.group(2) != null ? m.group(2) : m.group(3));
        }
        return options;
    }

    private static String text(Object value) {
        if (value == null) {
            return null;
        }
        String s = value instanceof Password p ? p.value() : value.toString();
        return s.isBlank() ? null : s.trim();
    }
}
