// HeraldTestSupport
