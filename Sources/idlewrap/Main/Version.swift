/// The release, in one place: `--version`, the Makefile's tarball name and
/// the CHANGELOG's newest entry all read it from here.
enum Version {
    static let number = "0.1.0"
}
