// A persistent key-value state store on Lodestone: Kafka Streams'
// KeyValueStore contract, with its reads and writes shaped so that the
// features act (docs/bindings.md).

package lodestone.kafkastreams;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.apache.kafka.streams.state.internals.StoreQueryUtils;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.InitialPuts;
import org.rocksdb.LRUCache;
import org.rocksdb.LodestoneOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What it does differently from Kafka Streams' {@code RocksDBStore}, each
 * for a feature:
 *
 * <ul>
 *   <li>{@code range}, {@code reverseRange} and {@code prefixScan} hand
 *       RocksDB their bounds ({@link LodestoneKeyValueIterator}), so CRaFT
 *       range filters answer for the tables they cover and scan-time
 *       conversion sees the scan's end. Kafka Streams' store checks the end
 *       of a range in Java and gives RocksDB no upper bound.
 *   <li>{@code putIfAbsent} of an absent key writes an initial put: the get
 *       that decided "absent" is the contract's proof. So does a restore
 *       into a store that was empty when it began, for each key's first
 *       changelog record ({@link RestoredKeys}). A later delete of such a
 *       key lets compaction drop the whole chain early.
 *   <li>{@code get} is RocksDB's Get, which the location cache serves.
 * </ul>
 *
 * <p>Everything else is Kafka Streams' contract: null keys throw, a null
 * value deletes, {@code delete} returns the old value, ranges with {@code
 * from > to} are empty, iterators still open when the store closes are
 * closed, IQv2 key and range queries work. The DB lives where Kafka
 * Streams puts a persistent store's ({@code <state dir>/rocksdb/<name>}),
 * is opened with Kafka Streams' defaults (4 KiB blocks, a Bloom filter, a
 * 50 MiB block cache, three 16 MiB write buffers, no compression) but for
 * leveled compaction (the tombstone-aware picker works with it), then the
 * application's {@code rocksdb.config.setter} if it names one, then the
 * supplier's Lodestone options string (last: a setter that sets the table
 * config back would drop the range filter the string adds to it).
 *
 * <p>Thread safety: Kafka Streams calls a store from its stream thread and
 * from interactive queries; every method is synchronized, as in Kafka
 * Streams' store.
 */
public class LodestoneKeyValueStore implements KeyValueStore<Bytes, byte[]> {
  private static final Logger LOG = LoggerFactory.getLogger(LodestoneKeyValueStore.class);
  private static final long BLOCK_CACHE_BYTES = 50L << 20;
  private static final long BLOCK_SIZE = 4096L;
  private static final long WRITE_BUFFER_BYTES = 16L << 20;
  private static final int MAX_WRITE_BUFFERS = 3;
  // As many as scans a store usually has open at once (a processor's
  // range join, an interactive query or two).
  private static final int MAX_IDLE_SCAN_OPTIONS = 4;

  private final String name;
  private final String lodestoneOptions;
  // Iterators not closed yet, and the read options of closed ones kept for
  // the next scans (ScanReadOptions); both guarded by openIterators, as an
  // interactive query may close its iterator on another thread.
  private final Set<LodestoneKeyValueIterator> openIterators = new HashSet<>();
  private final ArrayDeque<ScanReadOptions> idleScanOptions = new ArrayDeque<>();
  private final Position position = Position.emptyPosition();

  private StateStoreContext context;
  private File dbDir;
  private Options options;
  private LRUCache cache;
  private BloomFilter bloomFilter;
  private WriteOptions writeOptions;
  private FlushOptions flushOptions;
  private RocksDBConfigSetter configSetter;
  private RocksDB db;
  private volatile boolean open;
  // Set by the first write that is not a restore's (guarded by this). From
  // then on a restore's keys may have visible values its RestoredKeys never
  // saw (a standby promoted to active and recycled back keeps its store
  // and its restore callback), so restores write plain puts.
  private boolean writtenByProcessing;

  /**
   * @param name the store's name (its directory)
   * @param lodestoneOptions an options string for {@code
   *     LodestoneOptions.apply}, e.g. {@link LodestoneStores#DEFAULT_OPTIONS}
   */
  public LodestoneKeyValueStore(final String name, final String lodestoneOptions) {
    this.name = Objects.requireNonNull(name, "name cannot be null");
    this.lodestoneOptions = Objects.requireNonNull(lodestoneOptions);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public synchronized void init(final StateStoreContext context, final StateStore root) {
    this.context = context;
    this.dbDir = new File(new File(context.stateDir(), "rocksdb"), name);
    openDb(context.appConfigs());
    // Restores start from an empty store only when nothing is on disk yet.
    final boolean empty = isEmpty();
    context.register(root, new Restorer(empty));
    open = true;
  }

  private void openDb(final Map<String, Object> configs) {
    options = new Options();
    options.setCreateIfMissing(true);
    options.setErrorIfExists(false);
    // Kafka Streams' defaults (its RocksDBStore), but for leveled compaction.
    options.setWriteBufferSize(WRITE_BUFFER_BYTES);
    options.setMaxWriteBufferNumber(MAX_WRITE_BUFFERS);
    options.setCompressionType(CompressionType.NO_COMPRESSION);
    options.setInfoLogLevel(InfoLogLevel.ERROR_LEVEL);
    options.setIncreaseParallelism(Math.max(Runtime.getRuntime().availableProcessors(), 2));
    options.setCompactionStyle(CompactionStyle.LEVEL);
    options.setLevelCompactionDynamicLevelBytes(true);
    cache = new LRUCache(BLOCK_CACHE_BYTES);
    bloomFilter = new BloomFilter();
    final BlockBasedTableConfig table = new BlockBasedTableConfig();
    table.setBlockCache(cache);
    table.setBlockSize(BLOCK_SIZE);
    table.setFilterPolicy(bloomFilter);
    options.setTableFormatConfig(table);
    final Object setterClass = configs.get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG);
    if (setterClass != null) {
      configSetter = Utils.newInstance(setterClass instanceof Class
              ? (Class<?>) setterClass
              : classForName((String) setterClass),
          RocksDBConfigSetter.class);
      configSetter.setConfig(name, options, configs);
    }
    // After the setter: the string's table options (the range filter) are
    // applied natively to the table config the options hold, which a setter
    // that sets its table config back (Kafka Streams' documented way to
    // change one) would replace.
    try {
      LodestoneOptions.apply(options, lodestoneOptions);
    } catch (final NoClassDefFoundError e) {
      releaseOptions();
      throw new ProcessorStateException("Store " + name + ": lodestone-kafka-streams needs "
          + "Lodestone's rocksdbjni (org.rocksdb:rocksdbjni:9.10.0-lodestone) in place of "
          + "Kafka Streams' own", e);
    } catch (final RocksDBException e) {
      releaseOptions();
      throw new ProcessorStateException("Store " + name + ": Lodestone options \""
          + lodestoneOptions + "\": " + e.getMessage(), e);
    }
    writeOptions = new WriteOptions();
    writeOptions.setDisableWAL(true);  // The changelog is the log, as in Kafka Streams.
    flushOptions = new FlushOptions();
    flushOptions.setWaitForFlush(true);
    try {
      Files.createDirectories(dbDir.toPath());
      db = RocksDB.open(options, dbDir.getAbsolutePath());
    } catch (final IOException | RocksDBException e) {
      writeOptions.close();
      flushOptions.close();
      releaseOptions();
      throw new ProcessorStateException("Error opening store " + name + " at location "
          + dbDir, e);
    }
  }

  // What openDb made before the DB, released when the DB cannot open: an
  // open failure must not leak them (Kafka Streams may retry the store).
  private void releaseOptions() {
    try {
      if (configSetter != null) {
        configSetter.close(name, options);
        configSetter = null;
      }
    } finally {
      options.close();
      bloomFilter.close();
      cache.close();
    }
  }

  private static Class<?> classForName(final String className) {
    try {
      return Class.forName(className);
    } catch (final ClassNotFoundException e) {
      throw new ProcessorStateException("rocksdb.config.setter: no class " + className, e);
    }
  }

  private boolean isEmpty() {
    try (RocksIterator it = db.newIterator()) {
      it.seekToFirst();
      return !it.isValid();
    }
  }

  /**
   * Replays changelog batches. In a store that was empty when the restore
   * began, and that nothing but restores has written since, each key's
   * first record is an initial put (RestoredKeys).
   */
  private final class Restorer implements BatchingStateRestoreCallback {
    private final RestoredKeys restoredKeys;

    Restorer(final boolean storeWasEmpty) {
      this.restoredKeys = storeWasEmpty ? new RestoredKeys(1 << 20) : null;
    }

    @Override
    public void restoreAll(final Collection<KeyValue<byte[], byte[]>> records) {
      synchronized (LodestoneKeyValueStore.this) {
        try (WriteBatch batch = new WriteBatch()) {
          for (final KeyValue<byte[], byte[]> record : records) {
            final boolean isNew = restoredKeys != null && !writtenByProcessing
                && restoredKeys.addIfNew(record.key);
            if (record.value == null) {
              batch.delete(record.key);
            } else if (isNew) {
              InitialPuts.putInitial(batch, record.key, record.value);
            } else {
              batch.put(record.key, record.value);
            }
          }
          db.write(writeOptions, batch);
        } catch (final RocksDBException e) {
          throw new ProcessorStateException("Error restoring batch to store " + name, e);
        }
      }
    }
  }

  private void checkOpen() {
    if (!open) {
      throw new InvalidStateStoreException("Store " + name + " is currently closed");
    }
  }

  @Override
  public synchronized void put(final Bytes key, final byte[] value) {
    Objects.requireNonNull(key, "key cannot be null");
    checkOpen();
    writtenByProcessing = true;
    try {
      if (value == null) {
        db.delete(writeOptions, key.get());
      } else {
        db.put(writeOptions, key.get(), value);
      }
    } catch (final RocksDBException e) {
      throw new ProcessorStateException("Error while putting key/value into store " + name, e);
    }
    StoreQueryUtils.updatePosition(position, context);
  }

  @Override
  public synchronized byte[] putIfAbsent(final Bytes key, final byte[] value) {
    Objects.requireNonNull(key, "key cannot be null");
    final byte[] existing = get(key);
    if (existing == null && value != null) {
      // Absent, and only this thread writes: the initial-put contract holds.
      writtenByProcessing = true;
      try {
        InitialPuts.putInitial(db, writeOptions, key.get(), value);
      } catch (final RocksDBException e) {
        throw new ProcessorStateException("Error while putting key/value into store " + name,
            e);
      }
      StoreQueryUtils.updatePosition(position, context);
    }
    return existing;
  }

  @Override
  public synchronized void putAll(final List<KeyValue<Bytes, byte[]>> entries) {
    checkOpen();
    writtenByProcessing = true;
    try (WriteBatch batch = new WriteBatch()) {
      for (final KeyValue<Bytes, byte[]> entry : entries) {
        Objects.requireNonNull(entry.key, "key cannot be null");
        if (entry.value == null) {
          batch.delete(entry.key.get());
        } else {
          batch.put(entry.key.get(), entry.value);
        }
      }
      db.write(writeOptions, batch);
    } catch (final RocksDBException e) {
      throw new ProcessorStateException("Error while batch writing to store " + name, e);
    }
    StoreQueryUtils.updatePosition(position, context);
  }

  @Override
  public synchronized byte[] delete(final Bytes key) {
    Objects.requireNonNull(key, "key cannot be null");
    final byte[] existing = get(key);
    put(key, null);
    return existing;
  }

  @Override
  public synchronized byte[] get(final Bytes key) {
    Objects.requireNonNull(key, "key cannot be null");
    checkOpen();
    try {
      return db.get(key.get());
    } catch (final RocksDBException e) {
      throw new ProcessorStateException("Error while getting value for key from store " + name,
          e);
    }
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> range(final Bytes from, final Bytes to) {
    return scan(from, to, true);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseRange(final Bytes from, final Bytes to) {
    return scan(from, to, false);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> all() {
    return scan(null, null, true);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseAll() {
    return scan(null, null, false);
  }

  @Override
  public synchronized <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(
      final P prefix, final PS prefixKeySerializer) {
    Objects.requireNonNull(prefix, "prefix cannot be null");
    Objects.requireNonNull(prefixKeySerializer, "prefixKeySerializer cannot be null");
    final byte[] lower = prefixKeySerializer.serialize(null, prefix);
    return openIterator(lower, KeyBounds.prefixEnd(lower), true);
  }

  // [from, to], either end open when null; empty when from > to.
  private synchronized KeyValueIterator<Bytes, byte[]> scan(
      final Bytes from, final Bytes to, final boolean forward) {
    if (from != null && to != null && from.compareTo(to) > 0) {
      // Kafka Streams' own store's words, which its users (and its store
      // contract test) look for.
      LOG.warn("Returning empty iterator for fetch with invalid key range: from > to. "
          + "This may be due to range arguments set in the wrong order, "
          + "or serdes that don't preserve ordering when lexicographically comparing the "
          + "serialized bytes. Note that the built-in numerical serdes do not follow this "
          + "for negative numbers");
      checkOpen();
      return openIterator(new byte[0], new byte[0], forward);
    }
    return openIterator(from == null ? null : from.get(),
        to == null ? null : KeyBounds.successor(to.get()), forward);
  }

  private LodestoneKeyValueIterator openIterator(
      final byte[] lower, final byte[] upper, final boolean forward) {
    checkOpen();
    ScanReadOptions scanOptions;
    synchronized (openIterators) {
      scanOptions = idleScanOptions.pollFirst();
    }
    if (scanOptions == null) {
      scanOptions = new ScanReadOptions();
    }
    scanOptions.setBounds(lower, upper);
    final ScanReadOptions iteratorOptions = scanOptions;
    final LodestoneKeyValueIterator[] self = new LodestoneKeyValueIterator[1];
    self[0] = new LodestoneKeyValueIterator(name, db.newIterator(scanOptions.readOptions()),
        forward, () -> {
          synchronized (openIterators) {
            openIterators.remove(self[0]);
            if (open && idleScanOptions.size() < MAX_IDLE_SCAN_OPTIONS) {
              idleScanOptions.addFirst(iteratorOptions);
              return;
            }
          }
          iteratorOptions.close();
        });
    synchronized (openIterators) {
      openIterators.add(self[0]);
    }
    return self[0];
  }

  @Override
  public synchronized long approximateNumEntries() {
    checkOpen();
    try {
      final long n = db.getLongProperty("rocksdb.estimate-num-keys");
      return n < 0 ? Long.MAX_VALUE : n;  // RocksDB's count is unsigned.
    } catch (final RocksDBException e) {
      throw new ProcessorStateException("Error fetching property from store " + name, e);
    }
  }

  @Override
  public synchronized void flush() {
    if (db == null) {
      return;
    }
    try {
      db.flush(flushOptions);
    } catch (final RocksDBException e) {
      throw new ProcessorStateException("Error while executing flush from store " + name, e);
    }
  }

  @Override
  public synchronized void close() {
    if (!open) {
      return;
    }
    open = false;
    final List<LodestoneKeyValueIterator> iterators;
    synchronized (openIterators) {
      iterators = new ArrayList<>(openIterators);
    }
    iterators.forEach(LodestoneKeyValueIterator::close);
    synchronized (openIterators) {
      idleScanOptions.forEach(ScanReadOptions::close);
      idleScanOptions.clear();
    }
    try {
      if (configSetter != null) {
        configSetter.close(name, options);
        configSetter = null;
      }
    } finally {
      // Even when the application's setter throws: an open DB would keep
      // its lock, and the next instance of this store could not open it.
      db.close();
      db = null;
      options.close();
      writeOptions.close();
      flushOptions.close();
      bloomFilter.close();
      cache.close();
    }
  }

  /** A DB property of the open store (tests, diagnostics). */
  synchronized String property(final String property) {
    checkOpen();
    try {
      return db.getProperty(property);
    } catch (final RocksDBException e) {
      throw new ProcessorStateException("Error fetching property from store " + name, e);
    }
  }

  @Override
  public boolean persistent() {
    return true;
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public <R> QueryResult<R> query(
      final Query<R> query, final PositionBound positionBound, final QueryConfig config) {
    return StoreQueryUtils.handleBasicQueries(
        query, positionBound, config, this, position, context);
  }

  @Override
  public Position getPosition() {
    return position;
  }
}
