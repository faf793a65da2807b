import ArgumentParser
import Foundation
import KiwiAppleSignIn

/// Where the development stand-in for Apple's signing key lives.
struct DevelopmentKeyOptions: ParsableArguments {
    @Option(name: .long, help: "The folder of the development Apple key (key.pem and jwks.json).")
    var keyDirectory = ".run/dev-apple"

    var privateKeyPath: String { "\(keyDirectory)/key.pem" }
    var jwksPath: String { "\(keyDirectory)/jwks.json" }

    /// The key in the folder; a sentence for the user when there is none.
    func load() throws -> DevelopmentAppleKey {
        guard let key = try DevelopmentAppleKey.local(in: keyDirectory) else {
            throw CLIError("There is no development key in \(keyDirectory). Create one with `kiwi dev-keys`.")
        }
        return key
    }
}

/// `kiwi dev-keys`: creates the development key pair unless it exists, and prints the key set's path.
struct DevKeys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev-keys",
        abstract: "Create the development stand-in for Apple's signing key (once), and print the path of its JWKS.",
        discussion: "Point the auth service's APPLE_JWKS_FILE at that path; it is trusted only when KIWI_ENV=development."
    )

    @OptionGroup var key: DevelopmentKeyOptions

    func run() async throws {
        if !FileManager.default.fileExists(atPath: key.privateKeyPath) {
            let generated = try DevelopmentAppleKey.generate(keyID: DevelopmentAppleKey.localKeyID)
            try FileManager.default.createDirectory(atPath: key.keyDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard FileManager.default.createFile(atPath: key.privateKeyPath, contents: Data(generated.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw ValidationError("Cannot write \(key.privateKeyPath).")
            }
            try JSONEncoder().encode(try generated.jwks()).write(to: URL(fileURLWithPath: key.jwksPath))
        }
        print(key.jwksPath)
    }
}

/// `kiwi dev-token`: mints an identity token shaped like Apple's, signed with the development key.
struct DevToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev-token",
        abstract: "Print a Sign in with Apple identity token signed with the development key.",
        discussion: "Exchange it for a session with: curl -X POST localhost:8080/v1/auth/apple -d '{\"identityToken\":\"…\"}'"
    )

    @OptionGroup var key: DevelopmentKeyOptions

    @Option(name: .long, help: "The Apple user id (sub) the token names.")
    var sub: String

    @Option(name: .long, help: "The email the token carries, if any.")
    var email: String?

    @Option(name: .long, help: "The audience: one of the auth service's APPLE_CLIENT_ID values.")
    var audience = "app.kiwi.ios"

    @Option(name: .long, help: "How long the token stays valid, in seconds.")
    var validFor = 600

    func run() async throws {
        let now = Date()
        let claims = AppleIdentityClaims(
            audience: audience, expires: now.addingTimeInterval(TimeInterval(validFor)), issuedAt: now, subject: sub, email: email,
            emailVerified: email != nil ? true : nil
        )
        print(try await key.load().mint(claims))
    }
}
