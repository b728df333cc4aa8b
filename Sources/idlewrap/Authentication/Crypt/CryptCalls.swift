import CAuthShims
import PTYKit

/// libcrypt's calls, each wrapped once: on failure they return null and set
/// errno.
enum CryptCalls {
    /// A new setting for the method `prefix` names (e.g. "$6$"): the method,
    /// its default cost and a salt from the system's random source.
    static func newSetting(prefix: String) throws(Errno) -> String {
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        _ = try valueOrErrno(
            {
                crypt_gensalt_rn(prefix, 0, nil, 0, &setting, Int32(setting.count))
            }, failed: { $0 == nil })
        return string(fromNulTerminated: setting)
    }

    /// How crypt_checksalt rates `setting` (a `CRYPT_SALT_*` value), or nil
    /// where libcrypt is older than 4.3 and has no such call (RHEL 8).
    static func checkSalt(_ setting: String) -> Int32? {
        let rating = cauth_crypt_checksalt(setting)
        return rating == -1 ? nil : rating
    }

    /// `phrase` hashed with `setting`; `scratch` holds the intermediate state.
    static func hash(
        _ phrase: UnsafePointer<CChar>, setting: String, scratch: UnsafeMutablePointer<crypt_data>
    ) throws(Errno) -> String {
        let size = Int32(MemoryLayout<crypt_data>.size)
        let output = try valueOrErrno({ crypt_rn(phrase, setting, scratch, size) }, failed: { $0 == nil })
        return String(cString: output!)
    }
}
