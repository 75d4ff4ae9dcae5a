// HeraldStore
