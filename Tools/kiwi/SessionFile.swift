import Foundation

/// The signed-in session, kept between commands in `$XDG_CONFIG_HOME/kiwi/session.json`, else
/// `$HOME/.config/kiwi/session.json` (else the home folder of the user's account), readable by the user alone
/// (0600, in a 0700 folder).
struct SessionFile {
    struct Saved: Codable {
        var server: String
        var sessionToken: String
        var expiresAt: Date
    }

    let file: URL

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        func folder(_ name: String) -> URL? { environment[name].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) } }
        let base =
            folder("XDG_CONFIG_HOME")
            ?? (folder("HOME") ?? FileManager.default.homeDirectoryForCurrentUser).appending(path: ".config")
        file = base.appending(path: "kiwi").appending(path: "session.json")
    }

    func load() -> Saved? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONDecoder.iso8601.decode(Saved.self, from: data)
    }

    func save(_ session: Saved) throws {
        let folder = file.deletingLastPathComponent()
        // Created private from the first byte (umask), not made private afterwards: the token is never world-readable.
        let previous = umask(0o077)
        defer { umask(previous) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        try? FileManager.default.removeItem(at: file)
        guard
            FileManager.default.createFile(
                atPath: file.path,
                contents: try JSONEncoder.iso8601.encode(session),
                attributes: [.posixPermissions: 0o600]
            )
        else { throw CLIError("Cannot write the session to \(file.path).") }
    }

    func delete() {
        try? FileManager.default.removeItem(at: file)
    }
}

extension JSONDecoder {
    static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension JSONEncoder {
    static var iso8601: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// A failure told to the user as a sentence; the command exits with `status`: 1, or 64 (`EX_USAGE`) for an argument
/// found wrong only once the server was asked (a recipe number past the scan's recipes).
struct CLIError: Error, CustomStringConvertible {
    let description: String
    let status: Int32

    init(_ description: String, status: Int32 = 1) {
        self.description = description
        self.status = status
    }
}
