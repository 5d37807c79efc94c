# Tests of the bindings configuration (tools/build.sh bindings), beside
# RocksJava's own suite (upstream's jtest_<class> tests, one JVM per class,
# from java/CMakeLists.txt with our classes added by java/lodestone.cmake):
# grocksdb's suite through cgo against the installed static library,
# Kafka Streams' state stores on the jar, and lodestone-kafka-streams. Each exits 77 (skipped) when its
# toolchain is missing.
set(LODESTONE_JAVA_BUILD_DIR ${CMAKE_CURRENT_BINARY_DIR}/java)

add_test(NAME lodestone.grocksdb
  COMMAND bash ${LODESTONE_ROOT}/tests/bindings/run_grocksdb_test.sh
          ${CMAKE_BINARY_DIR} ${CMAKE_BINARY_DIR}/grocksdb-test)
set_tests_properties(lodestone.grocksdb PROPERTIES
  LABELS bindings SKIP_RETURN_CODE 77 TIMEOUT 1200)

add_test(NAME lodestone.kafka_streams
  COMMAND bash ${LODESTONE_ROOT}/tests/ecosystem/kafka-streams/run.sh
          ${LODESTONE_JAVA_BUILD_DIR})
set_tests_properties(lodestone.kafka_streams PROPERTIES
  LABELS bindings SKIP_RETURN_CODE 77 TIMEOUT 1200 RESOURCE_LOCK maven_local)

# lodestone-kafka-streams (java/kafka-streams/): our store suppliers, under
# Kafka Streams' own store contract and in topologies.
add_test(NAME lodestone.kafka_streams_stores
  COMMAND bash ${LODESTONE_ROOT}/java/kafka-streams/run_tests.sh
          ${LODESTONE_JAVA_BUILD_DIR})
set_tests_properties(lodestone.kafka_streams_stores PROPERTIES
  LABELS bindings SKIP_RETURN_CODE 77 TIMEOUT 1200 RESOURCE_LOCK maven_local)

# Kafka Streams applications on an in-process Kafka cluster (KRaft), two
# instances, exactly-once, a failover: small sizes, on stock rocksdbjni and
# on the Lodestone jar with Lodestone's stores (the full three-way
# measurement is tests/ecosystem/kafka-cluster/run.sh; docs/bindings.md).
add_test(NAME lodestone.kafka_cluster
  COMMAND env LODESTONE_CLUSTER_SIZE=small
          bash ${LODESTONE_ROOT}/tests/ecosystem/kafka-cluster/run.sh
          ${LODESTONE_JAVA_BUILD_DIR} ${CMAKE_CURRENT_BINARY_DIR}/kafka-cluster stock stores)
set_tests_properties(lodestone.kafka_cluster PROPERTIES
  LABELS bindings SKIP_RETURN_CODE 77 TIMEOUT 1200 RESOURCE_LOCK maven_local)
