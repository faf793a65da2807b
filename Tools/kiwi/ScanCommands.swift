import ArgumentParser
import AsyncHTTPClient
import Foundation
import KiwiAPIClient
import KiwiConcurrency
import KiwiModels
import NIOCore
import NIOHTTP1
import OpenAPIRuntime
import Synchronization

/// `kiwi scan PHOTO.jpg…`: what is in the fridge (up to five photos of one kitchen), and what to cook; with `--dish`,
/// which dish the photos show and how to cook it; with `--receipt`, the lines of a shopping receipt (its parts, top to
/// bottom). The scan is started with `POST /v1/scans` and
/// followed on its event stream with a progress line; a dropped connection is picked up again where it broke off
/// (the upload is retried under the same `Idempotency-Key`, the stream resumed with `Last-Event-ID`). On a terminal,
/// the ingredients and each recipe are printed as their events arrive (``StreamedAnswer``); elsewhere, and with
/// `--json`, only the answer. `--blocking` waits on `POST /v1/scan` instead; `--resume ID` follows a scan started earlier.
/// `--for NAME…` cooks for those members of the household only, found by their display names.
struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Scan photos of the inside of a fridge and print recipes, with --dish a photo of a dish and print how to cook it, "
            + "or with --receipt a shopping receipt and print its lines."
    )

    @OptionGroup var server: ServerOptions
    @Argument(help: "One to five JPEG photos of one kitchen (or of one dish), each at most 2 MiB, 8 MiB together.") var photos: [String] = []
    @Flag(help: "The photos show a cooked dish: name it and print one detailed recipe for it.") var dish = false
    @Flag(help: "The photos show one shopping receipt, in parts from top to bottom: print its lines.") var receipt = false
    @Option(help: "Follow the scan with this id (from `kiwi scans`) instead of starting one.") var resume: String?
    @Flag(help: "Wait for the answer on one request (POST /v1/scan) instead of following the scan's events.") var blocking = false
    @Flag(help: "Print the answer as JSON.") var json = false
    @Option(
        name: .customLong("for"),
        parsing: .upToNextOption,
        help: "Cook for these members of your household only, by their display names (see `kiwi household show`)."
    ) var members: [String] = []

    func validate() throws {
        guard photos.isEmpty != (resume == nil) else { throw ValidationError("Give photos to scan, or --resume with a scan id.") }
        guard photos.count <= ScanPhoto.maximumCount else { throw ValidationError("A scan takes at most \(ScanPhoto.maximumCount) photos.") }
        guard !(blocking && resume != nil) else { throw ValidationError("--blocking starts a scan; it cannot be used with --resume.") }
        guard members.isEmpty || resume == nil else { throw ValidationError("--for starts a scan; it cannot be used with --resume.") }
        guard !(dish && receipt) else { throw ValidationError("A scan is of a dish or of a receipt, not both.") }
        if let resume { _ = try IDArgument.scan(resume, named: "--resume") }
    }

    func run() async throws {
        try await Self.printAnswer(server: server, json: json, answer: answer)
    }

    /// Prints the answer of the scan `answer` starts or follows: as JSON with `json`; otherwise its ingredients and each
    /// recipe as their events arrive on a terminal, the answer alone elsewhere, with a progress line, then what
    /// `after` adds.
    static func printAnswer(
        server: ServerOptions,
        json: Bool,
        after: (Components.Schemas.ScanResponse, Client) async throws -> Void = { _, _ in },
        answer: (Client, SessionFile.Saved, ScanFollower) async throws -> (Components.Schemas.ScanResponse, String)
    ) async throws {
        try await runReportingErrors {
            let (client, _, session) = try signedInSession(server)
            // JSON is for programs: no progress lines beside it, and nothing before the answer.
            let progress = json ? nil : ProgressLine()
            let streamed = progress.flatMap { line in
                isatty(FileHandle.standardOutput.fileDescriptor) == 1 ? StreamedAnswer { text in line.above { print(text, terminator: "") } } : nil
            }
            let follower = ScanFollower(session: session, progress: progress, streamed: streamed)
            let (response, id) = try await answer(client, session, follower)
            guard !json else {
                print(String(decoding: try JSONEncoder.iso8601.encode(response), as: UTF8.self))
                return
            }
            if let streamed { streamed.finish(with: response) } else { print(ScanPrinter.text(response)) }
            try await after(response, client)
            if !response.recipes.isEmpty { hint("Save one: kiwi save \(id) <number>") }
        }
    }

    /// The answer of the scan followed or started, and the scan's id.
    private func answer(client: Client, session: SessionFile.Saved, follower: ScanFollower) async throws -> (Components.Schemas.ScanResponse, String)
    {
        if let resume {
            let id = try IDArgument.scan(resume, named: "--resume")
            return (try await follower.result(of: id), id)
        }
        let upload = try photos.map { (bytes: try PhotoFile.read($0), filename: URL(fileURLWithPath: $0).lastPathComponent) }
        let total = upload.reduce(0) { $0 + $1.bytes.count }
        guard total <= ScanPhoto.maximumTotalSize else {
            throw CLIError("These photos are \(total / 1_048_576) MiB together; Kiwi takes at most 8 MiB per scan. Send fewer or smaller ones.")
        }
        let mode: ScanMode = dish ? .dish : receipt ? .receipt : .fridge
        let audience = members.isEmpty ? nil : try await Self.memberIDs(named: members, client: client)
        return blocking
            ? try await Self.blockingScan(upload, mode: mode, for: audience, client: client)
            : try await Self.asyncScan(for: audience, client: client, follower: follower, note: "sending the photos again") {
                typealias Part = Operations.CreateScan.Input.Body.MultipartFormPayload
                let parts =
                    upload.map { Part.image(.init(payload: .init(body: HTTPBody($0.bytes)), filename: $0.filename)) }
                    + [Part.mode(.init(payload: .init(body: HTTPBody(mode.rawValue))))]
                return .multipartForm(.init(parts))
            }
    }

    /// The member ids of the household's members called `names` (in any case), for `?for=`.
    static func memberIDs(named names: [String], client: Client) async throws -> [String] {
        let household: Components.Schemas.Household
        switch try await client.getHousehold() {
        case .ok(let ok): household = try ok.body.json
        case .notFound: throw CLIError("--for names members of your household, and you are in none.")
        case let other: throw failure(other)
        }
        return try names.map { name in
            guard let member = household.members.first(where: { $0.displayName.lowercased() == name.lowercased() }) else {
                let known = household.members.map(\.displayName).joined(separator: ", ")
                throw CLIError("Your household has nobody called \(name); its members are \(known).")
            }
            return member.id
        }
    }

    /// `POST /v1/scans` with the body `body` makes (made afresh for each try, retried under one `Idempotency-Key` if
    /// the connection drops: the same scan, charged once; `note` says what a retry does), then its events, followed
    /// by `follower`; the answer and the scan's id.
    static func asyncScan(
        for audience: [String]?,
        client: Client,
        follower: ScanFollower,
        note: String,
        body: () -> Operations.CreateScan.Input.Body
    ) async throws
        -> (Components.Schemas.ScanResponse, String)
    {
        let key = UUID().uuidString.lowercased()
        var scan: Components.Schemas.Scan?
        for attempt in 1...3 {
            do {
                switch try await client.createScan(query: .init(_for: audience), headers: .init(idempotencyKey: key), body: body()) {
                case .accepted(let accepted): scan = try accepted.body.json
                case .ok(let ok): scan = try ok.body.json
                case let other: throw failure(other)
                }
                break
            } catch let error as ClientError where attempt < 3 {
                follower.progress?.note("The connection dropped (\(error.underlyingError.localizedDescription)); \(note).")
                try await sleep(for: .seconds(1))
            }
        }
        guard let scan else { throw CLIError("Kiwi did not answer.") }
        return (try await follower.result(of: scan.id, startedAs: scan), scan.id)
    }

    /// `POST /v1/scan`: one request that waits for the answer; the answer and the scan's id (from its `Location`).
    static func blockingScan(
        _ photos: [(bytes: [UInt8], filename: String)],
        mode: ScanMode,
        for audience: [String]?,
        client: Client
    ) async throws -> (Components.Schemas.ScanResponse, String) {
        typealias Part = Operations.ScanFridge.Input.Body.MultipartFormPayload
        let parts =
            photos.map { Part.image(.init(payload: .init(body: HTTPBody($0.bytes)), filename: $0.filename)) }
            + [Part.mode(.init(payload: .init(body: HTTPBody(mode.rawValue))))]
        switch try await client.scanFridge(query: .init(_for: audience), body: .multipartForm(.init(parts))) {
        case .ok(let ok): return (try ok.body.json, String(ok.headers.location.split(separator: "/").last ?? ""))
        case let other: throw failure(other)
        }
    }
}

/// Follows a scan on `GET /v1/scans/{id}/events` until its `result` or `error` event, with a progress line on
/// standard error, reconnecting with `Last-Event-ID` when the stream breaks off.
struct ScanFollower {
    let session: SessionFile.Saved
    /// Where the scan's progress is shown; nowhere when nil.
    let progress: ProgressLine?
    /// Where the answer's elements are shown as they stream (`ingredients`, `recipe`, `meal`, `restart` events); nowhere when nil.
    var streamed: StreamedAnswer? = nil
    /// Reconnections tried in a row before giving up.
    static let reconnections = 5

    /// The scan's answer; its error as a sentence.
    func result(of id: String, startedAs scan: Components.Schemas.Scan? = nil) async throws -> Components.Schemas.ScanResponse {
        progress?.show("Scan \(id): \(scan.map { Self.words(for: $0.status.rawValue) } ?? "connecting")")
        defer { progress?.finish() }
        var lastEventID: String?
        var failures = 0
        while true {
            do {
                var request = HTTPClientRequest(url: session.server.trimmingSuffix("/") + "/v1/scans/\(id)/events")
                request.headers.add(name: "Authorization", value: "Bearer \(session.sessionToken)")
                request.headers.add(name: "Accept", value: "text/event-stream")
                if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(600))
                switch response.status.code {
                case 200: break
                case 204: throw CLIError("The scan has ended, and this stream had already seen its end.")
                case 401: throw CLIError("Your session has expired or was signed out. Run `kiwi login --dev` again.")
                case 404: throw CLIError("There is no scan \(id); it may have passed its retention period.")
                default: throw CLIError("Kiwi answered an unexpected HTTP \(response.status.code) for the scan's events.")
                }
                let body = HTTPBody(response.body.map { Array($0.readableBytesView) }, length: .unknown, iterationBehavior: .single)
                for try await event in body.asDecodedServerSentEvents() {
                    failures = 0
                    lastEventID = event.id ?? lastEventID
                    guard let data = event.data.map({ Data($0.utf8) }), let name = event.event else { continue }
                    switch name {
                    case "ingredients", "recipe", "meal", "restart":
                        try streamed?.show(try ScanPartialEvent(name: name, data: data).partial)
                    case "result":
                        let scan = try JSONDecoder.iso8601.decode(Components.Schemas.Scan.self, from: data)
                        guard let result = scan.result else { throw CLIError("The scan succeeded, but its result is no longer kept.") }
                        return result
                    case "error":
                        let scan = try JSONDecoder.iso8601.decode(Components.Schemas.Scan.self, from: data)
                        throw scan.error.map { sentence($0, status: 200) } ?? CLIError("The scan failed.")
                    case "status":
                        let scan = try JSONDecoder.iso8601.decode(Components.Schemas.Scan.self, from: data)
                        progress?.show("Scan \(id): \(Self.words(for: scan.status.rawValue))")
                    default: continue  // an event this client does not know yet
                    }
                }
                throw StreamBrokeOff()
            } catch let error as CLIError {
                throw error
            } catch {
                failures += 1
                guard failures <= Self.reconnections else {
                    throw CLIError("Lost the connection to Kiwi: \(error). Resume with `kiwi scan --resume \(id)`.")
                }
                progress?.note("The connection dropped; picking the scan up again.")
                try await sleep(for: .seconds(1))
            }
        }
    }

    /// The stream ended without the scan's outcome.
    struct StreamBrokeOff: Error {}

    static func words(for status: String) -> String {
        switch status {
        case "queued": "waiting for a free cook…"
        case "running": "reading your photos…"
        default: status
        }
    }
}

/// `kiwi scans`: the scans still kept, newest first.
struct Scans: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List your recent scans, newest first.")

    @OptionGroup var server: ServerOptions
    @Option(help: "How many scans to list (1–100).") var limit = 20
    @Flag(help: "List your receipt scans instead.") var receipts = false

    func run() async throws {
        try await runReportingErrors {
            let (client, _) = try signedInClient(server)
            let page: Components.Schemas.ScanList
            switch try await client.listScans(query: .init(mode: receipts ? .receipt : nil, limit: limit)) {
            case .ok(let ok): page = try ok.body.json
            case let other: throw failure(other)
            }
            guard !page.scans.isEmpty else {
                print("No scans kept.")
                return
            }
            for scan in page.scans {
                let when = scan.createdAt.formatted(date: .abbreviated, time: .shortened)
                print("\(scan.id)  \(scan.status.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))  \(when)  \(Self.outcome(scan))")
            }
            if page.nextCursor != nil { hint("More scans are kept than these; --limit lists up to 100.") }
            hint("See one again: kiwi scan --resume <id>; keep one of its recipes: kiwi save <id> <number>")
        }
    }

    /// What a scan came to, in a few words.
    static func outcome(_ scan: Components.Schemas.Scan) -> String {
        if let result = scan.result {
            if result.mode == .dish { return result.dish.map { "dish: \($0.name)" } ?? "no dish found" }
            if let receipt = result.receipt {
                return "receipt: \(receipt.storeName ?? "a shop"), \(ScanPrinter.money(receipt.total, receipt.currency))"
            }
            return result.recipes.count == 1 ? "1 recipe" : "\(result.recipes.count) recipes"
        }
        return scan.error?.error ?? ""
    }
}

/// One line on standard error that changes as a scan moves: rewritten in place on a terminal, a line per change
/// otherwise (as in a log).
final class ProgressLine: Sendable {
    private let terminal = isatty(FileHandle.standardError.fileDescriptor) == 1
    /// The line shown now, on a terminal.
    private let current = Mutex<String?>(nil)

    func show(_ text: String) {
        if terminal { current.withLock { $0 = text } }
        write(terminal ? "\r\u{1B}[K\(text)" : "\(text)\n")
    }

    /// Runs `printing`, which writes to standard output, with the line taken away and then drawn again under it.
    func above(_ printing: () -> Void) {
        if terminal { write("\r\u{1B}[K") }
        printing()
        fflush(nil)  // standard output, before the line comes back on standard error
        if let line = current.withLock({ $0 }) { write(line) }
    }

    /// A sentence of its own, under the progress line.
    func note(_ text: String) {
        write(terminal ? "\r\u{1B}[K\(text)\n" : "\(text)\n")
    }

    func finish() {
        current.withLock { $0 = nil }
        if terminal { write("\r\u{1B}[K") }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

/// `kiwi cook-from-pantry`: recipes from what the pantry holds, those to use soonest first, with no photo
/// (`POST /v1/scans` with `{"source": "pantry"}`), printed as `kiwi scan` prints a scan's; then which pantry items
/// each recipe uses up.
struct CookFromPantry: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print recipes that use up what your pantry holds, the soonest to use first, without a photo. Counts as a scan."
    )

    @OptionGroup var server: ServerOptions
    @Flag(help: "Print the answer as JSON.") var json = false
    @Option(
        name: .customLong("for"),
        parsing: .upToNextOption,
        help: "Cook for these members of your household only, by their display names (see `kiwi household show`)."
    ) var members: [String] = []

    func run() async throws {
        try await Scan.printAnswer(server: server, json: json, after: Self.printUsesUp) { client, _, follower in
            let audience = members.isEmpty ? nil : try await Scan.memberIDs(named: members, client: client)
            return try await Scan.asyncScan(for: audience, client: client, follower: follower, note: "asking again") {
                .json(.init(source: .pantry))
            }
        }
    }

    /// Each recipe's pantry items used up, by name, as `GET /v1/pantry` lists them now.
    static func printUsesUp(_ response: Components.Schemas.ScanResponse, client: Client) async throws {
        let recipes = response.recipes
        guard recipes.contains(where: { !($0.usesUp ?? []).isEmpty }) else { return }
        let names = Dictionary(try await Pantry.allItems(client).map { ($0.id, $0.name) }) { first, _ in first }
        for (number, recipe) in recipes.enumerated() {
            let used = (recipe.usesUp ?? []).compactMap { names[$0] }
            if !used.isEmpty { print("\(number + 1). \(recipe.name) uses up \(used.joined(separator: ", ")).") }
        }
    }
}
