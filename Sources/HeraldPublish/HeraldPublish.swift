// The publisher's compilers arrive with the publisher issue.
import HeraldCore

public enum HeraldPublish {}
