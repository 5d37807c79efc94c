package lodestone.cluster;

import java.time.Duration;
import lodestone.kafkastreams.LodestoneStores;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The applications, one topology over two input topics:
 *
 * <ul>
 *   <li>(a) a KTable of orders (keyed "region-RR/order-NNNNNN", updated and
 *       deleted: a null value is a KTable tombstone), materialized in a
 *       store that interactive queries read by key and by region (a key
 *       range), joined with a stream of payments keyed by order: each
 *       payment of an order that exists when it is processed is written to
 *       "payments-enriched" as "payment|amount";
 *   <li>(b) payments counted per order in one-minute windows kept five
 *       minutes (older windows' segments are dropped), every update written
 *       to "order-window-counts" keyed "order@windowStart";
 *   <li>(c) payments counted per order in sessions (30 s of inactivity
 *       closes one), every update written to "order-sessions" keyed
 *       "order@start-end" (null: a session merged into a larger one).
 * </ul>
 *
 * Windows and sessions use event time (the payments' timestamps), group by
 * the input key (no repartition), so each task sees its payments in order.
 */
final class OrdersTopology {
  static final String ORDERS = "orders";
  static final String PAYMENTS = "payments";
  static final String ENRICHED = "payments-enriched";
  static final String STORE = "orders-store";
  static final String WINDOW_COUNTS = "order-window-counts";
  static final String SESSIONS = "order-sessions";
  static final Duration WINDOW = Duration.ofMinutes(1);
  static final Duration GRACE = Duration.ofSeconds(30);
  static final Duration RETENTION = Duration.ofMinutes(5);
  static final Duration SESSION_GAP = Duration.ofSeconds(30);

  private OrdersTopology() {}

  static String orderKey(final int region, final int order) {
    return String.format("region-%02d/order-%06d", region, order);
  }

  /** With lodestone-kafka-streams' store when {@code lodestoneStores}, else Kafka Streams'. */
  static Topology build(final boolean lodestoneStores) {
    final StreamsBuilder builder = new StreamsBuilder();
    final Materialized<String, String, KeyValueStore<Bytes, byte[]>> store = lodestoneStores
        ? Materialized.<String, String>as(LodestoneStores.persistentKeyValueStore(STORE))
        : Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as(STORE);
    final KTable<String, String> orders = builder.table(ORDERS,
        Consumed.with(Serdes.String(), Serdes.String()),
        store.withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
    final KStream<String, String> payments =
        builder.stream(PAYMENTS, Consumed.with(Serdes.String(), Serdes.String()));
    payments.join(orders, (payment, amount) -> payment + "|" + amount)
        .to(ENRICHED, Produced.with(Serdes.String(), Serdes.String()));
    final KGroupedStream<String, String> byOrder =
        payments.groupByKey(Grouped.with(Serdes.String(), Serdes.String()));
    byOrder.windowedBy(TimeWindows.ofSizeAndGrace(WINDOW, GRACE))
        .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("payments-per-window")
                   .withRetention(RETENTION))
        .toStream((window, count) -> window.key() + "@" + window.window().start())
        .mapValues(count -> String.valueOf(count))
        .to(WINDOW_COUNTS, Produced.with(Serdes.String(), Serdes.String()));
    byOrder.windowedBy(SessionWindows.ofInactivityGapAndGrace(SESSION_GAP, GRACE))
        .count(Materialized.<String, Long, SessionStore<Bytes, byte[]>>as("payment-sessions"))
        .toStream((session, count) -> session.key() + "@" + session.window().start() + "-"
                + session.window().end())
        .mapValues(count -> count == null ? null : String.valueOf(count))
        .to(SESSIONS, Produced.with(Serdes.String(), Serdes.String()));
    return builder.build();
  }
}
