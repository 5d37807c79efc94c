// Supplies LodestoneKeyValueStore instances to Kafka Streams' store
// builders (Stores.keyValueStoreBuilder, Materialized.as).

package lodestone.kafkastreams;

import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/** A drop-in for the supplier {@code Stores.persistentKeyValueStore} returns. */
public final class LodestoneKeyValueBytesStoreSupplier implements KeyValueBytesStoreSupplier {
  private final String name;
  private final String lodestoneOptions;

  LodestoneKeyValueBytesStoreSupplier(final String name, final String lodestoneOptions) {
    this.name = Objects.requireNonNull(name, "name cannot be null");
    this.lodestoneOptions = Objects.requireNonNull(lodestoneOptions);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public KeyValueStore<Bytes, byte[]> get() {
    return new LodestoneKeyValueStore(name, lodestoneOptions);
  }

  /** Metrics of these stores appear under this scope, beside Kafka Streams' "rocksdb". */
  @Override
  public String metricsScope() {
    return "lodestone";
  }
}
