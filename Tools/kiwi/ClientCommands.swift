import ArgumentParser
import Foundation
import KiwiAPIClient
import KiwiAppleSignIn
import KiwiDevelopment
import KiwiModels
import OpenAPIRuntime

/// The gateway to talk to.
struct ServerOptions: ParsableArguments {
    @Option(name: .long, help: "The Kiwi gateway (default: $KIWI_SERVER, else http://localhost:8080).")
    var server: String?

    var url: URL {
        get throws {
            let text = server ?? ProcessInfo.processInfo.environment["KIWI_SERVER"].flatMap { $0.isEmpty ? nil : $0 } ?? "http://localhost:8080"
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw CLIError("\(text) is not an http or https URL.")
            }
            return url
        }
    }
}

/// Runs a command body, printing failures as sentences and exiting non-zero.
func runReportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as CLIError {
        FileHandle.standardError.write(Data("kiwi: \(error.description)\n".utf8))
        throw ExitCode(error.status)
    } catch let error as ClientError {
        FileHandle.standardError.write(Data("kiwi: Could not reach Kiwi at \(error.baseURL): \(error.underlyingError.localizedDescription)\n".utf8))
        throw ExitCode(1)
    }
}

/// What to do next, for a person: on standard error, so that standard output keeps only the answer (`kiwi recipes | cut
/// -d' ' -f1` gives ids), after whatever the command has printed so far.
func hint(_ text: String) {
    fflush(nil)  // every output stream: standard output, whose answer comes first
    FileHandle.standardError.write(Data("\(text)\n".utf8))
}

/// The client for the saved session; a sentence when there is none.
func signedInClient(_ server: ServerOptions) throws -> (Client, SessionFile) {
    let (client, store, _) = try signedInSession(server)
    return (client, store)
}

/// The client for the saved session and the session itself (its server and token, for requests the generated client
/// cannot stream); a sentence when there is none.
func signedInSession(_ server: ServerOptions) throws -> (Client, SessionFile, SessionFile.Saved) {
    let store = SessionFile()
    guard let saved = store.load(), let savedURL = URL(string: saved.server) else {
        throw CLIError("You are not signed in. Run `kiwi login --dev` first.")
    }
    // The token goes only to the server that issued it.
    let explicit = server.server != nil || ProcessInfo.processInfo.environment["KIWI_SERVER"].map { !$0.isEmpty } == true
    if explicit, try server.url.absoluteString != savedURL.absoluteString {
        throw CLIError("You are signed in to \(saved.server), not \(try server.url.absoluteString). Run `kiwi login` for that server.")
    }
    return (KiwiAPI.client(serverURL: savedURL, sessionToken: saved.sessionToken), store, saved)
}

/// The sentence for any answer a command does not handle itself: the error body every error the API documents
/// carries, else the status. Read by reflection, since the generated client gives each operation's answers an enum
/// of its own: a command switches over the answers it handles and hands the rest here.
func failure(_ output: some Sendable) -> CLIError {
    guard let answer = Mirror(reflecting: output).children.first, let name = answer.label else {
        return CLIError("Kiwi answered in a way this command does not know.")
    }
    if name == "undocumented", let status = Mirror(reflecting: answer.value).descendant("statusCode") as? Int {
        return CLIError("Kiwi answered an unexpected HTTP \(status).")
    }
    guard let error = Mirror(reflecting: answer.value).descendant("body", "json") as? Components.Schemas._Error else {
        return CLIError("Kiwi answered \(name) without the error body the API documents.")
    }
    return sentence(error, status: statuses[name] ?? 0)
}

/// The HTTP status of each answer the generated client names.
private let statuses = [
    "badRequest": 400, "unauthorized": 401, "forbidden": 403, "notFound": 404, "notAcceptable": 406, "requestTimeout": 408, "conflict": 409,
    "unprocessableContent": 422, "tooManyRequests": 429, "internalServerError": 500, "badGateway": 502,
    "serviceUnavailable": 503, "gatewayTimeout": 504,
]

/// The sentence for an error body the gateway sent.
func sentence(_ error: Components.Schemas._Error, status: Int) -> CLIError {
    switch error.error {
    case "unauthorized": CLIError("Your session has expired or was signed out. Run `kiwi login --dev` again.")
    case "rate_limit_exceeded":
        CLIError(
            "You've used all of today's scans. More at \(error.resetsAt.map { $0.formatted(date: .omitted, time: .shortened) } ?? "midnight UTC")."
        )
    default: CLIError("\(error.message) (HTTP \(status), \(error.error))")
    }
}

/// `kiwi login`: signs in and keeps the session.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in and keep the session for the other commands.",
        discussion: "Use --dev against a development server (make run): it signs a Sign in with Apple token with the local "
            + "development key. Or pass an identity token from a real Sign in with Apple with --identity-token."
    )

    @OptionGroup var server: ServerOptions
    @OptionGroup var key: DevelopmentKeyOptions
    @Flag(help: "Sign in with the development key instead of Apple.") var dev = false
    @Option(help: "A Sign in with Apple identity token.") var identityToken: String?
    @Option(help: "With --dev: the Apple user id to sign in as; by default one of your own, 001.dev.<your login name>.") var sub: String?
    @Option(help: "With --dev: the email to sign in with.") var email: String?

    func run() async throws {
        try await runReportingErrors {
            let token: String
            if let identityToken {
                token = identityToken
            } else if dev {
                let now = Date()
                token = try await key.load().mint(
                    AppleIdentityClaims(
                        audience: "app.kiwi.ios",
                        expires: now + 600,
                        issuedAt: now,
                        subject: sub ?? "001.dev.\(NSUserName())",
                        email: email
                    )
                )
            } else {
                throw CLIError("Sign in with Apple happens in the app. Use --dev against a development server, or --identity-token.")
            }
            let url = try server.url
            switch try await KiwiAPI.client(serverURL: url).signInWithApple(body: .json(.init(identityToken: token))) {
            case .ok(let ok):
                let session = try ok.body.json
                try SessionFile().save(.init(server: url.absoluteString, sessionToken: session.sessionToken, expiresAt: session.expiresAt))
                print("Signed in until \(session.expiresAt.formatted(date: .abbreviated, time: .shortened)).")
            case .unauthorized(let refused): throw CLIError("Kiwi did not accept the identity token: \(try refused.body.json.message)")
            case .badRequest(let bad): throw CLIError(try bad.body.json.message)
            case .serviceUnavailable(let unavailable): throw CLIError(try unavailable.body.json.message)
            case let other: throw failure(other)
            }
        }
    }
}

/// A photo to scan, checked before it is uploaded against the gateway's rules, so that the user learns what to do
/// without spending a round trip on a photo Kiwi would refuse.
enum PhotoFile {
    static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("Cannot read \(path).") }
        return try check(Array(data), path: path)
    }

    static func check(_ bytes: [UInt8], path: String) throws -> [UInt8] {
        guard !bytes.isEmpty else { throw CLIError("\(path) is empty.") }
        guard bytes.count <= ScanPhoto.maximumSize else {
            let size = String(format: "%.1f", Double(bytes.count) / 1_048_576)
            throw CLIError(
                "\(path) is \(size) MiB; Kiwi takes photos up to 2 MiB. Save a smaller or more compressed JPEG (about 2000 pixels on the long side at quality 80 is plenty) and scan that."
            )
        }
        guard ScanPhoto.startsLikeJPEG(bytes) else { throw CLIError("\(path) is not a JPEG; Kiwi takes JPEG photos only.") }
        return bytes
    }
}

/// `kiwi quota`: scans left today.
struct Quota: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show how many scans are left today.")

    @OptionGroup var server: ServerOptions

    func run() async throws {
        try await runReportingErrors {
            let (client, _) = try signedInClient(server)
            switch try await client.getQuota() {
            case .ok(let ok):
                let quota = try ok.body.json
                print("\(quota.remaining) of \(quota.limit) scans left today; more at \(quota.resetsAt.formatted(date: .omitted, time: .shortened)).")
            case let other: throw failure(other)
            }
        }
    }
}

/// `kiwi logout`: ends the session on the server and forgets it here.
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Sign out and forget the session.")

    @OptionGroup var server: ServerOptions

    func run() async throws {
        try await runReportingErrors {
            let (client, store) = try signedInClient(server)
            switch try await client.signOut() {
            case .noContent, .unauthorized: store.delete()
            case let other: throw failure(other)
            }
            print("Signed out.")
        }
    }
}

/// `kiwi delete-account`: deletes the account and all its data.
struct DeleteAccount: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete-account", abstract: "Delete your account and all its data.")

    @OptionGroup var server: ServerOptions
    @Flag(help: "Do not ask for confirmation.") var yes = false

    func run() async throws {
        try await runReportingErrors {
            let (client, store) = try signedInClient(server)
            if !yes {
                print("This deletes your Kiwi account and all its data. Type 'delete' to confirm: ", terminator: "")
                guard readLine() == "delete" else { throw CLIError("Nothing was deleted.") }
            }
            switch try await client.deleteAccount() {
            case .ok: store.delete()
            case let other: throw failure(other)
            }
            print("Your account and all its data are deleted.")
        }
    }
}
