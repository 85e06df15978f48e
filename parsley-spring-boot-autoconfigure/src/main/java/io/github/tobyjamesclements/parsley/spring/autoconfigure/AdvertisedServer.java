package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * Where other instances reach this one's reads endpoint: the scheme, and the {@code host:port} that
 * becomes Kafka Streams' {@code application.server}. From {@code parsley.query.advertised-url} when
 * set; else {@code server.address} (this host's address when unset or a wildcard) and
 * {@code server.port} (8080 when unset), with {@code https} when {@code server.ssl.enabled}. A
 * {@code server.port} of 0 is chosen by the web server as it starts, after the Streams client is
 * built, so it gives no address.
 *
 * @param scheme {@code http} or {@code https}
 * @param endpoint {@code host:port}, or null when it cannot be known before the web server starts
 */
record AdvertisedServer(String scheme, @Nullable String endpoint) {

    static final String PROPERTY = "parsley.query.advertised-url";

    private static final Pattern URL = Pattern.compile("(?:(https?)://)?([^:/\\s]+|\\[[0-9a-fA-F:.]+]):(\\d{1,5})/?");

    static AdvertisedServer resolve(QueryProperties query, Environment environment) {
        Binder binder = Binder.get(environment);
        boolean ssl = binder.bind("server.ssl.enabled", Boolean.class).orElse(false);
        String url = query.getAdvertisedUrl();
        if (StringUtils.hasText(url)) {
            Matcher m = URL.matcher(url.trim().toLowerCase(Locale.ROOT));
            int port = m.matches() ? Integer.parseInt(m.group(3)) : 0;
            if (port < 1 || port > 65535) {
                throw new InvalidConfigurationPropertyValueException(PROPERTY, url, "An advertised URL is host:port"
                        + " or http(s)://host:port, with a port from 1 to 65535, such as 'http://orders-1:8080'");
            }
            return new AdvertisedServer(m.group(1) != null ? m.group(1) : ssl ? "https" : "http",
                    m.group(2) + ":" + port);
        }
        String scheme = ssl ? "https" : "http";
        int port = binder.bind("server.port", Integer.class).orElse(8080);
        if (port <= 0) {
            return new AdvertisedServer(scheme, null);
        }
        return new AdvertisedServer(scheme, host(binder.bind("server.address", String.class).orElse(null)) + ":"
                + port);
    }

    private static String host(@Nullable String address) {
        if (StringUtils.hasText(address) && !address.equals("0.0.0.0") && !address.equals("::")
                && !address.equals("[::]")) {
            return address;
        }
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (UnknownHostException e) {
            return InetAddress.getLoopbackAddress().getHostAddress();
        }
    }
}
