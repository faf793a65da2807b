import ArgumentParser
import Foundation
import KiwiAppleSignIn
import KiwiDevelopment

/// Where the development stand-in for Apple's signing key lives: `.run/dev-apple` of the Kiwi checkout, the folder
/// `make run` and `make up` create the key in and point the auth service at.
struct DevelopmentKeyOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "The folder of the development Apple key (key.pem and jwks.json); by default .run/dev-apple of the Kiwi checkout this command runs in or was built in."
    )
    var keyDirectory: String?

    /// The folder given, or the checkout's `.run/dev-apple`; nil outside a checkout.
    var resolvedDirectory: String? {
        keyDirectory ?? KiwiCheckout.find().map { $0.appending(path: ".run/dev-apple").path }
    }

    /// The folder, for creating the key; a sentence for the user when there is no checkout to put it in.
    func directory() throws -> String {
        guard let directory = resolvedDirectory else {
            throw CLIError("This is not inside a Kiwi checkout: run it from the checkout, or pass --key-directory <checkout>/.run/dev-apple.")
        }
        return directory
    }

    /// The key in the folder; a sentence for the user when there is none.
    func load() throws -> DevelopmentAppleKey {
        let directory = try directory()
        guard let key = try DevelopmentAppleKey.local(in: directory) else {
            throw CLIError(
                "There is no development key in \(directory). `make run` or `make up` in the Kiwi checkout creates it, and the auth service they start trusts only that key."
            )
        }
        return key
    }
}

/// The Kiwi source checkout: the folder with this package's `Package.swift` and the local-stack scripts.
enum KiwiCheckout {
    /// The checkout around the current directory, else the one this executable was built in (`.build/…/kiwi`).
    static func find(
        from current: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        executable: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    ) -> URL? {
        enclosingCheckout(of: current) ?? enclosingCheckout(of: executable.deletingLastPathComponent())
    }

    private static func enclosingCheckout(of folder: URL) -> URL? {
        var candidate = folder.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: candidate.appending(path: "deploy/local/common.sh").path),
                FileManager.default.fileExists(atPath: candidate.appending(path: "Package.swift").path)
            {
                return candidate
            }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { return nil }
            candidate = parent
        }
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
        try await runReportingErrors {
            let directory = try key.directory()
            let (privateKeyPath, jwksPath) = ("\(directory)/key.pem", "\(directory)/jwks.json")
            if !FileManager.default.fileExists(atPath: privateKeyPath) {
                let generated = try DevelopmentAppleKey.generate(keyID: DevelopmentAppleKey.localKeyID)
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                guard
                    FileManager.default.createFile(
                        atPath: privateKeyPath,
                        contents: Data(generated.pemRepresentation.utf8),
                        attributes: [.posixPermissions: 0o600]
                    )
                else {
                    throw CLIError("Cannot write \(privateKeyPath).")
                }
                try JSONEncoder().encode(try generated.jwks()).write(to: URL(fileURLWithPath: jwksPath))
            }
            print(jwksPath)
        }
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
            audience: audience,
            expires: now.addingTimeInterval(TimeInterval(validFor)),
            issuedAt: now,
            subject: sub,
            email: email,
            emailVerified: email != nil ? true : nil
        )
        try await runReportingErrors { print(try await key.load().mint(claims)) }
    }
}
