package lodestone.cluster;

import lodestone.kafkastreams.LodestoneStores;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Application (a): a KTable of orders (keyed "region-RR/order-NNNNNN",
 * updated and deleted: a null value is a KTable tombstone), materialized
 * in a store that interactive queries read by key and by region (a key
 * range), joined with a stream of payments keyed by order: each payment
 * of an order that exists when it is processed is written to
 * "payments-enriched" as "payment|amount".
 */
final class OrdersTopology {
  static final String ORDERS = "orders";
  static final String PAYMENTS = "payments";
  static final String ENRICHED = "payments-enriched";
  static final String STORE = "orders-store";

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
    builder.stream(PAYMENTS, Consumed.with(Serdes.String(), Serdes.String()))
        .join(orders, (payment, amount) -> payment + "|" + amount)
        .to(ENRICHED, Produced.with(Serdes.String(), Serdes.String()));
    return builder.build();
  }
}
