// The entry point: Lodestone's counterparts of Kafka Streams' Stores
// factory methods.

package lodestone.kafkastreams;

/**
 * Where an application writes {@code Stores.persistentKeyValueStore("orders")}
 * (or {@code Materialized.as("orders")}), it writes {@code
 * LodestoneStores.persistentKeyValueStore("orders")} (or {@code
 * Materialized.as(LodestoneStores.persistentKeyValueStore("orders"))}); its
 * build then depends on Lodestone's rocksdbjni in place of Kafka Streams'
 * own (docs/bindings.md shows the override).
 */
public final class LodestoneStores {
  /**
   * Every read feature on: the location cache for gets, CRaFT range filters
   * for bounded scans, scan-time conversion of tombstone runs, and
   * compaction that goes after tombstone-dense files first. CRaFT's
   * partitions stay pinned with their table once read, as Kafka Streams'
   * Bloom filters stay with theirs (its stores keep filters out of the
   * block cache): in a store larger than its cache, data blocks would
   * otherwise evict them and each bounded seek would read them again.
   */
  public static final String DEFAULT_OPTIONS = "location_cache=16M;"
      + "min_tombstones_for_range_conversion=4;"
      + "tombstone_density_trigger=0.3;"
      + "block_based_table_factory={range_filter=craft;"
      + "metadata_cache_options={partition_pinning=kAll}}";

  private LodestoneStores() {}

  /** A persistent key-value store with {@link #DEFAULT_OPTIONS}. */
  public static LodestoneKeyValueBytesStoreSupplier persistentKeyValueStore(final String name) {
    return persistentKeyValueStore(name, DEFAULT_OPTIONS);
  }

  /**
   * A persistent key-value store whose DB gets {@code lodestoneOptions}
   * (any options string {@code LodestoneOptions.apply} takes; checked when
   * the store opens).
   */
  public static LodestoneKeyValueBytesStoreSupplier persistentKeyValueStore(
      final String name, final String lodestoneOptions) {
    return new LodestoneKeyValueBytesStoreSupplier(name, lodestoneOptions);
  }
}
