import Crypto
import Foundation

/// A household invitation's code: 26 random letters and digits of base 32's alphabet, 130 bits, so that guessing one
/// in the day it lives is hopeless at any rate. Kiwi stores only its SHA-256, and finds an invitation by that hash: a
/// comparison's timing depends on the hash, which says nothing about any stored code.
enum InvitationCode {
    static let length = 26
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".unicodeScalars)

    /// A new code, from the system's cryptographic random source, with the hash it is stored by.
    static func make() -> (code: String, hash: Data) {
        var random = SystemRandomNumberGenerator()
        let code = String(String.UnicodeScalarView((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }))
        return (code, hash(code))
    }

    /// The hash a code is stored by, read as a person may type it (in any case, with spaces or hyphens between
    /// groups); nil for text that is no code.
    static func hash(of typed: String) -> Data? {
        let code = typed.lowercased().unicodeScalars.filter { $0 != " " && $0 != "-" }
        guard code.count == length, code.allSatisfy(alphabet.contains) else { return nil }
        return hash(String(String.UnicodeScalarView(code)))
    }

    private static func hash(_ code: String) -> Data { Data(SHA256.hash(data: Data(code.utf8))) }
}
