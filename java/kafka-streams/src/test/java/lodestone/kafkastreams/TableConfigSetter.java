package lodestone.kafkastreams;

import java.util.Map;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;

/**
 * A rocksdb.config.setter that changes the table config the way Kafka
 * Streams' documentation shows (take {@code options.tableFormatConfig()},
 * change it, set it back: here a larger block size), and attaches
 * Statistics as StatisticsConfigSetter does.
 */
public class TableConfigSetter extends StatisticsConfigSetter {
  @Override
  public void setConfig(
      final String storeName, final Options options, final Map<String, Object> configs) {
    final BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
    table.setBlockSize(16 * 1024L);
    options.setTableFormatConfig(table);
    super.setConfig(storeName, options, configs);
  }
}
