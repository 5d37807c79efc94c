module lodestone.test/bindings

go 1.21

require github.com/linxGnu/grocksdb v1.9.8
