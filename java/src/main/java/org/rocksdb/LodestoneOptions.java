// Lodestone: options strings applied to RocksJava's existing option objects
// and to an open DB (rocksjni/lodestone_options.cc).

package org.rocksdb;

import java.util.Objects;

/**
 * Applies an options string to an options object a program already holds,
 * the way {@code GetDBOptionsFromString} / {@code
 * GetColumnFamilyOptionsFromString} / {@code GetOptionsFromString} apply it
 * to a base in C++. Stock RocksJava can only build new objects from strings
 * ({@link DBOptions#getDBOptionsFromProps}, {@link
 * ColumnFamilyOptions#getColumnFamilyOptionsFromProps}), which drops
 * everything set through setters; this keeps it and changes only what the
 * string names. It is how Java reaches Lodestone's options (every one has an
 * options string form, docs/options.md), e.g.
 *
 * <pre>{@code
 * LodestoneOptions.apply(dbOptions, "location_cache=64M;verify_initial_puts=true");
 * LodestoneOptions.apply(cfOptions, "min_tombstones_for_range_conversion=3;"
 *     + "block_based_table_factory={range_filter=craft}");
 * }</pre>
 *
 * <p>Every key must be known and every value valid: otherwise nothing
 * changes and a {@link RocksDBException} carries the {@code InvalidArgument}
 * status. A {@code block_based_table_factory={...}} setting starts from the
 * table options already set; the Java object returned by {@code
 * tableFormatConfig()} does not see it, and a later {@code
 * setTableFormatConfig} replaces it, so apply strings after table configs.
 *
 * <p>On an open DB, {@link #setOptions} changes mutable column family options
 * from a string, Lodestone's included, and {@link #getOptions} reads them:
 * {@link MutableColumnFamilyOptions} knows only upstream's keys, so {@link
 * RocksDB#setOptions(ColumnFamilyHandle, MutableColumnFamilyOptions)} cannot
 * send Lodestone's and {@link RocksDB#getOptions(ColumnFamilyHandle)} drops
 * them.
 */
public final class LodestoneOptions {
  private LodestoneOptions() {}

  public static void apply(final DBOptions options, final String optionsString)
      throws RocksDBException {
    applyToDBOptions(handleOf(options), Objects.requireNonNull(optionsString));
  }

  public static void apply(final ColumnFamilyOptions options, final String optionsString)
      throws RocksDBException {
    applyToColumnFamilyOptions(handleOf(options), Objects.requireNonNull(optionsString));
  }

  /**
   * Applies DB and column family options alike (GetOptionsFromString).
   *
   * <p>A subclass of {@link Options} that forwards its setters to a {@link
   * DBOptions} and a {@link ColumnFamilyOptions} it holds, the way Kafka
   * Streams' {@code RocksDBGenericOptionsToDbOptionsColumnFamilyOptionsAdapter}
   * (what a {@code RocksDBConfigSetter} receives) does, opens its DB with
   * those two, not with itself: the string is applied to them.
   */
  public static void apply(final Options options, final String optionsString)
      throws RocksDBException {
    Objects.requireNonNull(optionsString);
    final RocksObject[] forwarded = forwardedTo(Objects.requireNonNull(options));
    if (forwarded != null) {
      applyToOptionsPair(handleOf(forwarded[0]), handleOf(forwarded[1]), optionsString);
    } else {
      applyToOptions(handleOf(options), optionsString);
    }
  }

  /**
   * Changes options of an open DB's column family, as {@code DB::SetOptions}
   * does in C++: every key must name a mutable column family option (e.g.
   * {@code "min_tombstones_for_range_conversion=4;tombstone_density_trigger=0.3"}),
   * or nothing changes and a {@link RocksDBException} carries the {@code
   * InvalidArgument} status.
   */
  public static void setOptions(final RocksDB db, final ColumnFamilyHandle columnFamily,
      final String optionsString) throws RocksDBException {
    setColumnFamilyOptions(
        handleOf(db), handleOf(columnFamily, db), Objects.requireNonNull(optionsString));
  }

  /**
   * The column family's current options as an options string ({@code
   * GetStringFromColumnFamilyOptions} of {@code DB::GetOptions}), in which
   * Lodestone's options appear once they differ from their defaults.
   */
  public static String getOptions(final RocksDB db, final ColumnFamilyHandle columnFamily)
      throws RocksDBException {
    return getColumnFamilyOptions(handleOf(db), handleOf(columnFamily, db));
  }

  // The DBOptions and ColumnFamilyOptions an Options subclass forwards to:
  // exactly one field of each type, declared by the subclass; else null.
  private static RocksObject[] forwardedTo(final Options options) {
    if (options.getClass() == Options.class) {
      return null;
    }
    RocksObject db = null;
    RocksObject cf = null;
    for (Class<?> c = options.getClass(); c != Options.class; c = c.getSuperclass()) {
      for (final java.lang.reflect.Field field : c.getDeclaredFields()) {
        if (java.lang.reflect.Modifier.isStatic(field.getModifiers())) {
          continue;
        }
        final boolean isDb = field.getType() == DBOptions.class;
        final boolean isCf = field.getType() == ColumnFamilyOptions.class;
        if (!isDb && !isCf) {
          continue;
        }
        final Object value;
        try {
          field.setAccessible(true);
          value = field.get(options);
        } catch (final ReflectiveOperationException | RuntimeException e) {
          return null;
        }
        if (value == null || (isDb ? db : cf) != null) {
          return null;
        }
        if (isDb) {
          db = (RocksObject) value;
        } else {
          cf = (RocksObject) value;
        }
      }
    }
    return db != null && cf != null ? new RocksObject[] {db, cf} : null;
  }

  private static long handleOf(final RocksObject object) {
    Objects.requireNonNull(object);
    if (!object.isOwningHandle()) {
      throw new IllegalStateException(
          "the " + object.getClass().getSimpleName() + " is closed");
    }
    return object.nativeHandle_;
  }

  // The default column family's handle never owns its native handle.
  private static long handleOf(final ColumnFamilyHandle columnFamily, final RocksDB db) {
    Objects.requireNonNull(columnFamily);
    if (!columnFamily.isOwningHandle()
        && columnFamily.nativeHandle_ != db.getDefaultColumnFamily().nativeHandle_) {
      throw new IllegalStateException("the ColumnFamilyHandle is closed");
    }
    return columnFamily.nativeHandle_;
  }

  private static native void applyToDBOptions(final long handle, final String optionsString)
      throws RocksDBException;
  private static native void applyToColumnFamilyOptions(
      final long handle, final String optionsString) throws RocksDBException;
  private static native void applyToOptions(final long handle, final String optionsString)
      throws RocksDBException;
  private static native void applyToOptionsPair(final long dbOptionsHandle,
      final long cfOptionsHandle, final String optionsString) throws RocksDBException;
  private static native void setColumnFamilyOptions(final long dbHandle,
      final long columnFamilyHandle, final String optionsString) throws RocksDBException;
  private static native String getColumnFamilyOptions(
      final long dbHandle, final long columnFamilyHandle) throws RocksDBException;
}
