/// XNU's jetsam priority bands, as bsd/sys/kern_memorystatus.h numbers them (xnu-11417.101.15,
/// `JETSAM_PRIORITY_REVISION` 2, lines 43–84): the lower, the sooner killed. The one place jetsim
/// writes these numbers; `JetsamPolicy.Bands` starts from them and the band predictor of imported
/// reports names them.
public enum JetsamPriority {
  /// `JETSAM_PRIORITY_IDLE`: suspended apps, idle daemons and extensions.
  public static let idle = 0
  /// `JETSAM_PRIORITY_AGING_BAND1` (`JETSAM_PRIORITY_IDLE_DEFERRED`): a daemon aging towards IDLE.
  public static let agingBand1 = 10
  /// `JETSAM_PRIORITY_AGING_BAND2` (`JETSAM_PRIORITY_BACKGROUND_OPPORTUNISTIC`): an app aging
  /// towards IDLE.
  public static let agingBand2 = 20
  /// `JETSAM_PRIORITY_BACKGROUND`: a process running in the background.
  public static let background = 30
  /// `JETSAM_PRIORITY_ELEVATED_INACTIVE` (`JETSAM_PRIORITY_MAIL`), which the header says "IS used by
  /// many active processes doing background work".
  public static let elevatedInactive = 40
  /// `JETSAM_PRIORITY_FREEZER`: where frozen processes go (`memorystatus_freeze_jetsam_band`).
  public static let freezer = 75
  /// `JETSAM_PRIORITY_UI_SUPPORT`.
  public static let uiSupport = 80
  /// `JETSAM_PRIORITY_FOREGROUND`: the app on screen.
  public static let foreground = 100
  /// `JETSAM_PRIORITY_AUDIO_AND_ACCESSORY`: a process playing audio or serving an accessory.
  public static let audioAndAccessory = 120
  /// `JETSAM_PRIORITY_DRIVER_APPLE`.
  public static let driverApple = 150
  /// `JETSAM_PRIORITY_HOME`: SpringBoard, the home screen.
  public static let home = 160
  /// `JETSAM_PRIORITY_MAX`: the highest band a kill reaches (`memorystatus_kill_top_process` walks
  /// the bands while `<= max_priority`) and the highest a process may ask for.
  public static let max = 210
  /// `JETSAM_PRIORITY_INTERNAL` ("set on launchd and kernel_task"): never a jetsam victim.
  public static let `internal` = 999
}
