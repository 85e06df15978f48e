package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.junit.jupiter.api.Test;

/**
 * The main consumer wrapper behind the position capture (protocol.md §12.3, §16.3), against
 * Kafka's in-memory {@link MockConsumer}. The capture's state is local to the calling thread, so
 * each test runs on a thread of its own: it starts with no views and leaves none behind.
 */
class CapturingConsumerTests {

    private static final String TOPIC = "in";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

    @Test
    void pollRecordsEachAssignedPartitionsPositionAndHighestReturnedOffset() throws Exception {
        onFreshThread(() -> {
            MockConsumer<byte[], byte[]> mock = assigned(new MockConsumer<>("earliest"), P0, P1);
            Consumer<byte[], byte[]> captured = PositionCapture.wrap(mock);
            mock.updateBeginningOffsets(Map.of(P0, 0L, P1, 5L));
            for (long offset = 0; offset < 3; offset++) {
                mock.addRecord(new ConsumerRecord<>(TOPIC, 0, offset, new byte[0], new byte[0]));
            }

            assertThat(captured.poll(Duration.ZERO).count()).isEqualTo(3);
            assertThat(PositionCapture.view(P0)).isEqualTo(new PositionCapture.View(3, 2));
            assertThat(PositionCapture.view(P1)).isEqualTo(new PositionCapture.View(5, -1));

            captured.seek(P0, 1);
            captured.poll(Duration.ZERO);
            assertThat(PositionCapture.view(P0)).as("a seek back moves the position, not the highest offset returned")
                    .isEqualTo(new PositionCapture.View(1, 2));
        });
    }

    @Test
    void subscribeWithAListenerResetsTheViewsOfRevokedAndAssignedPartitionsThenCallsIt() throws Exception {
        onFreshThread(() -> {
            MockConsumer<byte[], byte[]> other = assigned(new MockConsumer<>("earliest"), P1);
            other.updateBeginningOffsets(Map.of(P1, 7L));
            PositionCapture.wrap(other).poll(Duration.ZERO);
            MockConsumer<byte[], byte[]> mock = new MockConsumer<>("earliest");
            mock.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
            List<String> calls = new ArrayList<>();
            PositionCapture.wrap(mock).subscribe(Pattern.compile(TOPIC), recording(calls));
            mock.rebalance(List.of(P0));
            PositionCapture.wrap(mock).poll(Duration.ZERO);
            assertThat(PositionCapture.view(P0)).isNotNull();
            assertThat(PositionCapture.view(P1)).isEqualTo(new PositionCapture.View(7, -1));

            mock.rebalance(List.of(P1));

            assertThat(PositionCapture.view(P0)).as("revoked").isNull();
            assertThat(PositionCapture.view(P1)).as("assigned: a view left from another assignment").isNull();
            assertThat(calls).containsExactly("assigned [in-0]", "revoked [in-0]", "assigned [in-1]");
        });
    }

    @Test
    void subscribeToTopicsWithAListenerResetsTheViewsOfRevokedPartitions() throws Exception {
        onFreshThread(() -> {
            MockConsumer<byte[], byte[]> mock = new MockConsumer<>("earliest");
            Consumer<byte[], byte[]> captured = PositionCapture.wrap(mock);
            List<String> calls = new ArrayList<>();
            captured.subscribe(List.of(TOPIC), recording(calls));
            mock.rebalance(List.of(P0));
            mock.updateBeginningOffsets(Map.of(P0, 0L));
            captured.poll(Duration.ZERO);
            assertThat(PositionCapture.view(P0)).isNotNull();

            mock.rebalance(List.of());

            assertThat(PositionCapture.view(P0)).isNull();
            assertThat(calls).containsExactly("assigned [in-0]", "revoked [in-0]", "assigned []");
        });
    }

    @Test
    void offsetOutOfRangeFromPollFailsClosedNamingTheLostRange() throws Exception {
        onFreshThread(() -> {
            MockConsumer<byte[], byte[]> mock = assigned(new MockConsumer<>("none"), P0, P1);
            mock.updateBeginningOffsets(Map.of(P0, 8L, P1, 10L));
            OffsetOutOfRangeException outrun = new OffsetOutOfRangeException("below log start", Map.of(P0, 3L, P1, 4L));
            mock.setPollException(outrun);

            assertThatThrownBy(() -> PositionCapture.wrap(mock).poll(Duration.ZERO))
                    .isInstanceOf(IllegalStateException.class)
                    .hasCause(outrun)
                    .hasMessageContaining("Retention deleted records this application had not consumed")
                    .hasMessageContaining("lost offset ranges={in-0=[3, 7], in-1=[4, 9]}")
                    .hasMessageContaining("reset the application's state and offsets deliberately");
            assertThat(PositionCapture.view(P0)).as("nothing captured from a failed poll").isNull();
        });
    }

    @Test
    void offsetOutOfRangeFromPositionFailsClosedAndTheRangeSurvivesAFailingLogStartLookup() throws Exception {
        onFreshThread(() -> {
            OffsetOutOfRangeException outrun = new OffsetOutOfRangeException("below log start", Map.of(P0, 3L));
            MockConsumer<byte[], byte[]> mock = new MockConsumer<>("none") {
                @Override
                public synchronized long position(TopicPartition partition, Duration timeout) {
                    throw outrun;
                }

                @Override
                public synchronized long position(TopicPartition partition) {
                    throw outrun;
                }
            };
            Consumer<byte[], byte[]> captured = PositionCapture.wrap(mock);
            mock.updateBeginningOffsets(Map.of(P0, 8L));

            assertThatThrownBy(() -> captured.position(P0)).isInstanceOf(IllegalStateException.class)
                    .hasCause(outrun).hasMessageContaining("lost offset ranges={in-0=[3, 7]}");
            mock.setOffsetsException(new KafkaException("broker gone"));
            assertThatThrownBy(() -> captured.position(P0, Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasCause(outrun).hasMessageContaining("lost offset ranges={in-0=[3, ?]}");
        });
    }

    @Test
    void otherExceptionsPassThroughUnwrapped() throws Exception {
        onFreshThread(() -> {
            MockConsumer<byte[], byte[]> mock = assigned(new MockConsumer<>("none"), P0);
            Consumer<byte[], byte[]> captured = PositionCapture.wrap(mock);
            NoOffsetForPartitionException noOffset = new NoOffsetForPartitionException(P0);
            mock.setPollException(noOffset);
            assertThatThrownBy(() -> captured.poll(Duration.ZERO))
                    .as("Streams resets a partition without a committed offset itself").isSameAs(noOffset);
            AuthorizationException denied = new AuthorizationException("denied");
            mock.setPollException(denied);
            assertThatThrownBy(() -> captured.poll(Duration.ZERO)).isSameAs(denied);
            mock.setOffsetsException(denied);
            assertThatThrownBy(() -> captured.beginningOffsets(List.of(P0))).isSameAs(denied);
        });
    }

    @Test
    void everyCallRecordsTheConsumerThisThreadAsksForCommittedPositions() throws Exception {
        onFreshThread(() -> {
            MockConsumer<byte[], byte[]> first = assigned(new MockConsumer<>("earliest"), P0);
            first.commitSync(Map.of(P0, new OffsetAndMetadata(11)));
            MockConsumer<byte[], byte[]> second = assigned(new MockConsumer<>("earliest"), P0);
            second.commitSync(Map.of(P0, new OffsetAndMetadata(22)));
            assertThat(PositionCapture.committed(Set.of(P0))).as("no consumer called on this thread").isEmpty();

            PositionCapture.wrap(first).assignment();
            assertThat(PositionCapture.committed(Set.of(P0))).isEqualTo(Map.of(P0, 11L));
            PositionCapture.wrap(second).paused();
            assertThat(PositionCapture.committed(Set.of(P0))).isEqualTo(Map.of(P0, 22L));
        });
    }

    @Test
    void everyConsumerMethodIsDeclaredByTheWrapperSoNoneFallsBackToAnInterfaceDefault() {
        assertThat(undeclared(CapturingConsumer.class))
                .as("Consumer methods the wrapper does not declare: forward each in ForwardingConsumer, or give it"
                        + " the capture's meaning in CapturingConsumer")
                .isEmpty();
        assertThat(undeclared(Bare.class)).as("the check sees methods a class leaves to Consumer")
                .contains("poll(Duration)", "close()");
        for (String meaningful : List.of("poll", "position", "subscribe")) {
            assertThat(Arrays.stream(Consumer.class.getMethods()).filter(m -> m.getName().equals(meaningful))
                    .filter(m -> !meaningful.equals("subscribe") || m.getParameterCount() == 2))
                    .allSatisfy(m -> assertThat(declarer(CapturingConsumer.class, m)).as(m.toString())
                            .isEqualTo(CapturingConsumer.class));
        }
    }

    /** Consumer methods whose implementation in {@code type} is abstract or comes from the interface. */
    private static List<String> undeclared(Class<?> type) {
        List<String> out = new ArrayList<>();
        for (Method m : Consumer.class.getMethods()) {
            Class<?> declarer = declarer(type, m);
            if (declarer.isInterface() || Modifier.isAbstract(implementation(type, m).getModifiers())) {
                out.add(m.getName() + Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName).toList()
                        .toString().replace('[', '(').replace(']', ')'));
            }
        }
        return out;
    }

    private static Class<?> declarer(Class<?> type, Method m) {
        return implementation(type, m).getDeclaringClass();
    }

    private static Method implementation(Class<?> type, Method m) {
        try {
            return type.getMethod(m.getName(), m.getParameterTypes());
        } catch (NoSuchMethodException e) {
            throw new AssertionError(type + " does not have " + m, e);
        }
    }

    /** A consumer that implements nothing itself, to show the check can fail. */
    private abstract static class Bare implements Consumer<byte[], byte[]> {
    }

    private static MockConsumer<byte[], byte[]> assigned(MockConsumer<byte[], byte[]> mock, TopicPartition... tps) {
        mock.assign(List.of(tps));
        return mock;
    }

    private static ConsumerRebalanceListener recording(List<String> calls) {
        return new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                calls.add("revoked " + partitions);
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                calls.add("assigned " + partitions);
            }
        };
    }

    private interface Body {
        void run() throws Exception;
    }

    /** Runs the body on a new thread, so its thread-local views neither meet nor outlive other tests'. */
    private static void onFreshThread(Body body) throws Exception {
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            thread.submit(() -> {
                body.run();
                return null;
            }).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw (Exception) e.getCause();
        } finally {
            thread.shutdownNow();
        }
    }
}
