// HeraldPublish
