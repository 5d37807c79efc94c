# Lodestone's RocksJava additions, included by upstream's
# java/CMakeLists.txt (patches/0034) after its source lists and before its
# targets: our classes and JNI sources join upstream's jar and
# librocksdbjni, our tests its test jar and its ctest tests (jtest_<class>).
set(LODESTONE_JAVA ${LODESTONE_ROOT}/java)
list(APPEND JNI_NATIVE_SOURCES
  ${LODESTONE_JAVA}/rocksjni/initial_put.cc
  ${LODESTONE_JAVA}/rocksjni/lodestone_options.cc
  ${LODESTONE_JAVA}/rocksjni/secondary_delete.cc)
list(APPEND JAVA_MAIN_CLASSES
  ${LODESTONE_JAVA}/src/main/java/org/rocksdb/InitialPutNatives.java
  ${LODESTONE_JAVA}/src/main/java/org/rocksdb/InitialPuts.java
  ${LODESTONE_JAVA}/src/main/java/org/rocksdb/LodestoneOptions.java
  ${LODESTONE_JAVA}/src/main/java/org/rocksdb/SecondaryDeletes.java)
list(APPEND JAVA_TEST_CLASSES
  ${LODESTONE_JAVA}/src/test/java/org/rocksdb/InitialPutTest.java
  ${LODESTONE_JAVA}/src/test/java/org/rocksdb/LodestoneOptionsTest.java
  ${LODESTONE_JAVA}/src/test/java/org/rocksdb/LodestoneTickers.java
  ${LODESTONE_JAVA}/src/test/java/org/rocksdb/LodestoneTickersTest.java
  ${LODESTONE_JAVA}/src/test/java/org/rocksdb/SecondaryDeleteTest.java)
list(APPEND JAVA_TEST_RUNNING_CLASSES
  org.rocksdb.InitialPutTest
  org.rocksdb.LodestoneOptionsTest
  org.rocksdb.LodestoneTickersTest
  org.rocksdb.SecondaryDeleteTest)

# The jar is named after CMAKE_PROJECT_VERSION, the top-level project's
# version: ours (lodestone) has none, so name it after upstream's, as its
# own build does (rocksdbjni-9.10.0-linux64.jar).
set(CMAKE_PROJECT_VERSION ${rocksdb_VERSION})
