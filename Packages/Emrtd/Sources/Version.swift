/// The version of this emrtd: the one place it is written. `emrtd --version`, libemrtd's
/// `emrtd_version()` (static text the C ABI hands out forever, hence `StaticString`), the Python
/// wheel (read from the library it carries) and the Debian package (from `emrtd --version`) all
/// take it from here.
public let emrtdReleaseVersion: StaticString = "0.1.0"
