import Foundation
import KiwiAppleSignIn
import KiwiDevelopment
import KiwiJPEG
import KiwiModels
import KiwiTestSupport
import Logging
import NIOHTTP1
import Testing

@testable import KiwiLLMStub

/// The `kiwi` command-line client, run as a real process against the real services.
@Suite("kiwi CLI end to end", .serialized, .timeLimit(.minutes(3)))
struct CLITests {
    /// Runs `kiwi` with a configuration folder and development key folder of the test's own.
    struct CLI {
        let home: URL
        let server: URL

        init(server: URL) throws {
            home = FileManager.default.temporaryDirectory.appending(path: "kiwi-cli-\(UUID().uuidString)")
            self.server = server
            let keys = home.appending(path: "dev-apple")
            try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
            try Data(SystemRig.key.pemRepresentation.utf8).write(to: keys.appending(path: "key.pem"))
        }

        func run(_ arguments: [String], xdgConfigHome: Bool = true, in directory: URL? = nil) async throws -> (status: Int32?, output: String) {
            var environment = ["KIWI_SERVER": server.absoluteString, "HOME": home.path]
            if xdgConfigHome { environment["XDG_CONFIG_HOME"] = home.appending(path: "config").path }
            let process = try ServiceProcess("kiwi", arguments: arguments, environment: environment, in: directory)
            let status = await process.waitForExit(timeout: .seconds(60))
            return (status, process.capturedOutput())
        }

        /// Starts `kiwi` on a terminal of its own (a pseudo-terminal, through util-linux's `script`), where both its
        /// outputs go, each newline written as CR LF.
        func startOnTerminal(_ arguments: [String]) throws -> ServiceProcess {
            let command = ([ServiceProcess.buildDirectory.appending(path: "kiwi").path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            let environment = ["KIWI_SERVER": server.absoluteString, "HOME": home.path, "XDG_CONFIG_HOME": home.appending(path: "config").path]
            return try ServiceProcess(
                executable: URL(fileURLWithPath: "/usr/bin/script"),
                arguments: ["-qec", command, "/dev/null"],
                environment: environment
            )
        }

        /// `kiwi login --dev` as a fresh Apple id, with the test's development key.
        func logIn(xdgConfigHome: Bool = true) async throws -> (status: Int32?, output: String) {
            try await run(
                ["login", "--dev", "--sub", "001.cli.\(UUID().uuidString)", "--key-directory", home.appending(path: "dev-apple").path],
                xdgConfigHome: xdgConfigHome
            )
        }

        var sessionFile: URL { home.appending(path: "config/kiwi/session.json") }

        /// The N of `kiwi quota`'s "N of 4 scans left today"; nil when it says anything else.
        func scansLeft() async throws -> Int? {
            try await run(["quota"]).output.prefixMatch(of: /(\d+) of 4 scans left today/).flatMap { Int($0.1) }
        }

        /// The names of a scan's recipes, in its answer's order, as `kiwi scan --resume --json` gives them.
        func recipeNames(ofScan id: String) async throws -> [String] {
            let followed = try await run(["scan", "--resume", id, "--json"])
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(followed.output.utf8)) as? [String: Any], "\(followed.output)")
            return try #require((answer["recipes"] as? [[String: Any]])?.compactMap { $0["name"] as? String })
        }

        /// A session for `server` written as `kiwi login` writes it, without asking any server.
        func signIn(to server: URL) throws {
            try FileManager.default.createDirectory(at: sessionFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            let session = ["server": server.absoluteString, "sessionToken": "not-a-real-token", "expiresAt": "2099-01-01T00:00:00Z"]
            try JSONEncoder().encode(session).write(to: sessionFile)
        }
    }

    @Test("login --dev, quota, scan, quota decreased, export-account, delete-account; then commands say to sign in and exit non-zero")
    func story() async throws {
        let photo = Self.temporaryFile(SyntheticJPEG.make(size: 16 * 1024, seed: 51))
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            let login = try await cli.logIn()
            #expect(login.status == 0, "\(login.output)")
            #expect(login.output.hasPrefix("Signed in until"))
            let permissions = try FileManager.default.attributesOfItem(atPath: cli.sessionFile.path)[.posixPermissions] as? Int
            #expect(permissions == 0o600)

            #expect(try await cli.run(["quota"]).output.hasPrefix("4 of 4 scans left today"))
            let day = UTCDay()
            let scan = try await cli.run(["scan", photo.path])
            #expect(scan.status == 0, "\(scan.output)")
            #expect(scan.output.contains("In your fridge:") && scan.output.contains("min, "))
            #expect(scan.output.contains("reading your photos") || scan.output.contains("waiting for a free cook"), "no progress line")
            let json = try await cli.run(["scan", photo.path, "--json", "--blocking"])
            #expect(json.status == 0)
            #expect(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) is [String: Any])
            #expect(day.allows(try await cli.scansLeft(), exactly: 2, limit: 4))
            let scans = try await cli.run(["scans"])
            #expect(scans.status == 0)
            let lines = scans.output.split(separator: "\n").filter { $0.contains("succeeded") }
            #expect(lines.count == 2, "\(scans.output)")
            let id = try #require(lines.first?.split(separator: " ").first.map(String.init))
            let resumed = try await cli.run(["scan", "--resume", id])
            #expect(resumed.status == 0, "\(resumed.output)")
            #expect(resumed.output.contains("In your fridge:"))
            #expect(day.allows(try await cli.scansLeft(), exactly: 2, limit: 4), "following a scan costs nothing")

            let export = try await cli.run(["export-account"])
            #expect(export.status == 0)
            let exported = try KiwiJSON.decoder().decode(AccountExport.self, from: Data(export.output.utf8))
            #expect(exported.scans.count == 2)

            let deletion = try await cli.run(["delete-account", "--yes"])
            #expect(deletion.status == 0)
            #expect(deletion.output.contains("deleted"))
            let after = try await cli.run(["quota"])
            #expect(after.status == 1)
            #expect(after.output.contains("You are not signed in"))
        }
    }

    @Test("a photo that is not a JPEG is refused with a sentence and a non-zero exit")
    func refusedPhoto() async throws {
        let notAPhoto = Self.temporaryFile(Array("just text".utf8))
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            _ = try await cli.logIn()
            let scan = try await cli.run(["scan", notAPhoto.path])
            #expect(scan.status == 1)
            #expect(scan.output.contains("is not a JPEG"))
            let logout = try await cli.run(["logout"])
            #expect(logout.status == 0 && !FileManager.default.fileExists(atPath: cli.sessionFile.path))
        }
    }

    @Test("save keeps a scan's recipe; recipes lists and searches it; export prints JSON-LD and text; share prints a working link")
    func recipeBox() async throws {
        let photo = Self.temporaryFile(SyntheticJPEG.make(size: 16 * 1024, seed: 53))
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let scanned = try await cli.run(["scan", photo.path, "--json", "--blocking"])
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(scanned.output.utf8)) as? [String: Any])
            let recipe = try #require((answer["recipes"] as? [[String: Any]])?.first)
            let (recipeID, name) = (try #require(recipe["id"] as? String), try #require(recipe["name"] as? String))
            let scans = try await cli.run(["scans"])
            let scanID = try #require(scans.output.split(separator: "\n").first?.split(separator: " ").first.map(String.init))

            let save = try await cli.run(["save", scanID, recipeID])
            #expect(save.status == 0, "\(save.output)")
            let savedID = try #require(Self.savedID(save.output))
            #expect(save.output.hasPrefix("Saved \(name) as "))
            let listed = try await cli.run(["recipes", "--query", String(name.prefix(4))])
            #expect(listed.output.hasPrefix("\(savedID)  \(name)"), "\(listed.output)")
            #expect(try await cli.run(["recipes", "--query", "no such dish"]).output == "No saved recipe matches.\n")

            let linked = try await cli.run(["export", savedID])
            #expect(linked.status == 0, "\(linked.output)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(linked.output.utf8)) as? [String: Any])
            #expect(document["@type"] as? String == "Recipe")
            #expect(try await cli.run(["export", savedID, "--format", "text"]).output.hasPrefix(name + "\n"))

            let shared = try await cli.run(["share", savedID])
            #expect(shared.status == 0, "\(shared.output)")
            let link = try #require(URL(string: shared.output.trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(try await rig.send(.GET, link.path).status == 200)
            #expect(try await cli.run(["share", savedID, "--withdraw"]).status == 0)
            #expect(try await rig.send(.GET, link.path).status == 404)
        }
    }

    @Test("a photo over 2 MiB is refused before it is uploaded, with what to do about it")
    func oversizedPhotoIsCheckedFirst() async throws {
        let large = try await offThePool { Self.temporaryFile(SyntheticJPEG.make(size: 3_800_000, seed: 52)) }
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            _ = try await cli.logIn()
            let scan = try await cli.run(["scan", large.path])
            #expect(scan.status == 1)
            #expect(scan.output.contains("Kiwi takes photos up to 2 MiB") && scan.output.contains("smaller"), "\(scan.output)")
            #expect(try await cli.run(["quota"]).output.hasPrefix("4 of 4 scans left today"))
        }
    }

    @Test("without XDG_CONFIG_HOME the session is kept under $HOME/.config/kiwi")
    func honoursHome() async throws {
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            let login = try await cli.logIn(xdgConfigHome: false)
            #expect(login.status == 0, "\(login.output)")
            #expect(FileManager.default.fileExists(atPath: cli.home.appending(path: ".config/kiwi/session.json").path))
        }
    }

    @Test("profile set replaces the profile and profile shows it; a bad allergy is refused with a sentence")
    func profile() async throws {
        try await SystemRig.run(workers: 0) { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let set = try await cli.run([
                "profile", "set", "--diet", "vegan", "--allergy", "tree_nuts", "--dislike", "Olives", "--max-cook-time", "20",
            ])
            #expect(set.status == 0, "\(set.output)")
            #expect(set.output.contains("Profile saved."))
            let shown = try await cli.run(["profile"])
            #expect(shown.status == 0)
            #expect(shown.output.contains("Diets:      vegan") && shown.output.contains("Allergies:  tree_nuts"))
            #expect(shown.output.contains("Dislikes:   olives") && shown.output.contains("at most 20 minutes"))
            let refused = try await cli.run(["profile", "set", "--allergy", "nuts"])
            #expect(refused.status == 1)
            #expect(refused.output.contains("nuts is not an allergen group Kiwi knows"))
        }
    }

    @Test("profile set --language and --units set how answers are written; a language Kiwi does not write is refused")
    func profileLanguage() async throws {
        try await SystemRig.run(workers: 0) { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let set = try await cli.run(["profile", "set", "--language", "de", "--units", "us"])
            #expect(set.status == 0, "\(set.output)")
            #expect(set.output.contains("Language:   de") && set.output.contains("Units:      us"))
            let refused = try await cli.run(["profile", "set", "--language", "pt"])
            #expect(refused.status == 1)
            #expect(refused.output.contains("Kiwi does not write pt"))
        }
    }

    @Test("scan takes several photos in one scan, and --dish prints the dish and its recipe")
    func severalPhotosAndDish() async throws {
        let photos = (1...3).map { Self.temporaryFile(SyntheticJPEG.make(size: 8 * 1024, seed: 140 + UInt64($0))).path }
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let fridge = try await cli.run(["scan", "--blocking"] + photos)
            #expect(fridge.status == 0, "\(fridge.output)")
            #expect(fridge.output.contains("In your fridge:"))
            #expect(rig.stub.snapshot.recent.last?.imageCount == 3)
            let dish = try await cli.run(["scan", "--dish", photos[0]])
            #expect(dish.status == 0, "\(dish.output)")
            #expect(dish.output.contains("% sure)") && dish.output.contains("serves "))
            #expect(rig.stub.snapshot.recent.last?.parameters.schemaName == "kiwi_dish")
        }
    }

    @Test("scan --receipt prints the receipt's lines numbered, then the shop and the total; scans --receipts lists it")
    func receipt() async throws {
        let photo = Self.temporaryFile(SyntheticJPEG.make(size: 8 * 1024, seed: 151)).path
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let scan = try await cli.run(["scan", "--receipt", photo])
            #expect(scan.status == 0, "\(scan.output)")
            #expect(scan.output.contains("On the receipt:\n  [1] "), "\(scan.output)")
            #expect(scan.output.contains("\nTotal: "))
            #expect(rig.stub.snapshot.recent.last?.parameters.schemaName == "kiwi_receipt")
            let scanID = try #require(try await cli.run(["scans", "--receipts"]).output.split(separator: " ").first.map(String.init))
            let added = try await cli.run(["pantry", "add-from", scanID, "--lines", "1,2"])
            #expect(added.status == 0, "\(added.output)")
            #expect(added.output.hasPrefix("Your pantry has the scan's 2 ingredients:"), "\(added.output)")
            let past = try await cli.run(["pantry", "add-from", scanID, "--lines", "99"])
            #expect(past.status == 64 && past.output.contains("--lines takes numbers from 1 to"), "\(past.output)")
            let listed = try await cli.run(["scans", "--receipts"])
            #expect(listed.status == 0 && listed.output.contains("receipt: "), "\(listed.output)")
            #expect(try await cli.run(["scans"]).output.hasPrefix("No scans kept."))
        }
    }

    @Test("dev-keys and dev-token work from outside the checkout, with the key `make run` makes the auth service trust")
    func developmentKeyFromAnotherDirectory() async throws {
        let cli = try CLI(server: URL(string: "http://127.0.0.1:1")!)
        let elsewhere = FileManager.default.temporaryDirectory
        let keys = try await cli.run(["dev-keys"], in: elsewhere)
        #expect(keys.status == 0, "\(keys.output)")
        let jwks = keys.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(jwks.hasSuffix(".run/dev-apple/jwks.json"))
        #expect(jwks == ServiceProcess.checkout.appending(path: ".run/dev-apple/jwks.json").path)

        let token = try await cli.run(["dev-token", "--sub", "001.elsewhere.0001"], in: elsewhere)
        #expect(token.status == 0, "\(token.output)")
        let verifier = AppleIdentityTokenVerifier(
            keys: AppleSigningKeys(source: FileJWKSSource(path: jwks), logger: Logger(label: "test.cli")),
            audiences: ["app.kiwi.ios"]
        )
        let identity = try await verifier.verify(token.output.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(identity.subject == "001.elsewhere.0001")
    }

    @Test("scan numbers its recipes [1], [2]… and ends with the command that saves one, naming the scan")
    func numberedRecipes() async throws {
        let photo = Self.temporaryFile(SyntheticJPEG.make(size: 16 * 1024, seed: 54))
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let scan = try await cli.run(["scan", photo.path])
            #expect(scan.status == 0, "\(scan.output)")
            let scanID = try #require(try await cli.run(["scans"]).output.split(separator: " ").first.map(String.init))
            let names = try await cli.recipeNames(ofScan: scanID)
            for (number, name) in names.enumerated() { #expect(scan.output.contains("\n[\(number + 1)] \(name) — "), "\(scan.output)") }
            #expect(!scan.output.contains("[\(names.count + 1)] "))
            #expect(scan.output.hasSuffix("Save one: kiwi save \(scanID) <number>\n"), "\(scan.output)")
        }
    }

    @Test("on a terminal, scan prints the ingredients and each recipe as it streams, then only what the result adds")
    func streamsOnATerminal() async throws {
        let photo = Self.temporaryFile(SyntheticJPEG.make(size: 16 * 1024, seed: 58))
        var behaviour = StubBehaviour()
        behaviour.tokensPerSecond = 300  // a four-recipe answer (about 1,300 tokens) streams for about 4 s
        try await SystemRig.run(behaviour: behaviour) { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let scan = try cli.startOnTerminal(["scan", photo.path])
            try await eventually { Self.terminalText(scan.capturedOutput()).contains("\n[1] ") }
            let firstRecipeShown = Self.terminalText(scan.capturedOutput())
            #expect(firstRecipeShown.contains("In your fridge:\n  • "), "\(firstRecipeShown)")
            #expect(!firstRecipeShown.contains("\n[4] "), "the first recipe is printed before the answer is whole: \(firstRecipeShown)")
            #expect(await scan.waitForExit(timeout: .seconds(60)) == 0)
            let output = Self.terminalText(scan.capturedOutput())
            let scanID = try #require(try await cli.run(["scans"]).output.split(separator: " ").first.map(String.init))
            let names = try await cli.recipeNames(ofScan: scanID)
            #expect(names.count == 4)
            for (number, name) in names.enumerated() {
                #expect(output.components(separatedBy: "\n[\(number + 1)] \(name) — ").count == 2, "printed once: \(output)")
            }
            #expect(output.components(separatedBy: "In your fridge:").count == 2, "\(output)")
        }
    }

    @Test("save SCAN N keeps the scan's Nth recipe")
    func saveByNumber() async throws {
        let photo = Self.temporaryFile(SyntheticJPEG.make(size: 16 * 1024, seed: 55))
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            #expect(try await cli.run(["scan", photo.path, "--blocking"]).status == 0)
            let scanID = try #require(try await cli.run(["scans"]).output.split(separator: " ").first.map(String.init))
            let names = try await cli.recipeNames(ofScan: scanID)
            try #require(names.count >= 2, "the stub answers two to four recipes")
            let save = try await cli.run(["save", scanID, "2"])
            #expect(save.status == 0, "\(save.output)")
            #expect(save.output.hasPrefix("Saved \(names[1]) as "), "\(save.output)")
        }
    }

    @Test("save refuses a recipe number past the scan's recipes with their range and exit status 64, and keeps nothing")
    func saveNumberOutOfRange() async throws {
        let photo = Self.temporaryFile(SyntheticJPEG.make(size: 16 * 1024, seed: 56))
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            #expect(try await cli.run(["scan", photo.path, "--blocking"]).status == 0)
            let scanID = try #require(try await cli.run(["scans"]).output.split(separator: " ").first.map(String.init))
            let count = try await cli.recipeNames(ofScan: scanID).count
            let save = try await cli.run(["save", scanID, "\(count + 1)"])
            #expect(save.status == 64, "\(save.output)")
            #expect(save.output.contains("RECIPE must be a recipe number from the scan (1–\(count)) or a recipe id (a UUID)"), "\(save.output)")
            #expect(try await cli.run(["recipes"]).output.hasPrefix("Your recipe box is empty."))
        }
    }

    @Test("share takes the id that recipes lists, and prints a working link")
    func shareByListedID() async throws {
        let photo = Self.temporaryFile(SyntheticJPEG.make(size: 16 * 1024, seed: 57))
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            #expect(try await cli.run(["scan", photo.path, "--blocking"]).status == 0)
            let scanID = try #require(try await cli.run(["scans"]).output.split(separator: " ").first.map(String.init))
            #expect(try await cli.run(["save", scanID, "1"]).status == 0)
            let listed = try await cli.run(["recipes"])
            #expect(listed.output.contains("Share one: kiwi share <id>"), "\(listed.output)")
            let savedID = try #require(listed.output.split(separator: " ").first.map(String.init))
            let shared = try await cli.run(["share", savedID])
            #expect(shared.status == 0, "\(shared.output)")
            let link = try #require(shared.output.split(separator: "\n").first.flatMap { URL(string: String($0)) })
            #expect(try await rig.send(.GET, link.path).status == 200)
        }
    }

    /// Malformed arguments, with what the refusal says to pass instead.
    static let malformedArguments: [(arguments: [String], says: String)] = [
        (["save", "6f1c0a3e-8a6b-4f5e-9a3e-2b9d5b0c7d11", "spinach-omelette"], "RECIPE must be a recipe number from the scan"),
        (["save", "6f1c0a3e-8a6b-4f5e-9a3e-2b9d5b0c7d11", "0"], "RECIPE must be a recipe number from the scan"),
        (["save", "1", "1"], "SCAN must be a scan id (a UUID), as `kiwi scans` lists them"),
        (["share", "2"], "ID must be a saved recipe's id (a UUID), as `kiwi recipes` lists them; '2' is not one. A number is not taken"),
        (["share", "omelette", "--withdraw"], "ID must be a saved recipe's id (a UUID)"),
        (["export", "6f1c0a3e"], "ID must be a saved recipe's id (a UUID)"),
        (["scan", "--resume", "yesterday"], "--resume must be a scan id (a UUID)"),
    ]

    @Test(
        "a malformed id or recipe number is refused before any request: exit status 64 and what to pass, not a connection error",
        arguments: malformedArguments
    )
    func malformedIDRefusedLocally(arguments: [String], says: String) async throws {
        // Signed in to a closed port: a command that sent its request would fail to connect (the well-formed case shows it).
        let cli = try CLI(server: URL(string: "http://127.0.0.1:1")!)
        try cli.signIn(to: cli.server)
        let wellFormed = try await cli.run(["share", "6f1c0a3e-8a6b-4f5e-9a3e-2b9d5b0c7d11"])
        #expect(wellFormed.status == 1 && wellFormed.output.contains("Could not reach Kiwi"), "\(wellFormed.output)")

        let refused = try await cli.run(arguments)
        #expect(refused.status == 64, "\(refused.output)")
        #expect(refused.output.contains(says), "\(refused.output)")
        #expect(!refused.output.contains("Could not reach Kiwi"))
    }

    /// What a terminal shows of `output`: a CR goes back to its line's start, where what follows overwrites the line, and
    /// ESC [ K erases the rest of it.
    static func terminalText(_ output: String) -> String {
        var lines: [[Unicode.Scalar]] = [[]]
        var column = 0
        var rest = Substring(output).unicodeScalars
        while let scalar = rest.popFirst() {
            switch scalar {
            case "\n":
                lines.append([])
                column = 0
            case "\r": column = 0
            case "\u{1B}" where rest.starts(with: "[K".unicodeScalars):
                rest.removeFirst(2)
                lines[lines.count - 1].removeSubrange(column...)
            default:
                if column < lines[lines.count - 1].count { lines[lines.count - 1][column] = scalar } else { lines[lines.count - 1].append(scalar) }
                column += 1
            }
        }
        return lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
    }

    /// The id in `kiwi save`'s first line, `Saved NAME as ID.`
    static func savedID(_ output: String) -> String? {
        output.split(separator: "\n").first.flatMap { $0.split(separator: " ").last.map { String($0.dropLast()) } }
    }

    /// Writes `bytes` to a temporary file: a photo for `kiwi scan`.
    static func temporaryFile(_ bytes: [UInt8]) -> URL {
        let file = FileManager.default.temporaryDirectory.appending(path: "kiwi-cli-photo-\(UUID().uuidString).jpg")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(bytes))
        return file
    }
}
