// HeraldCore
