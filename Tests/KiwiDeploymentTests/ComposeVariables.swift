import Foundation

/// The variables docker-compose substitutes into `docker-compose.yml`, read from an env file such as
/// `deploy/.env.example`, and the substitution itself: enough of Compose's rules for Kiwi's file.
struct ComposeVariables {
    let values: [String: String]

    /// Reads `NAME=value` lines; blank lines and lines starting with `#` are skipped, surrounding quotes removed.
    init(envFile text: String) {
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let line = line.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let quote = value.first, quote == "\"" || quote == "'", value.last == quote {
                value = String(value.dropFirst().dropLast())
            }
            values[name] = value
        }
        self.values = values
    }

    /// Substitutes `${NAME}`, `${NAME:-default}`, `${NAME-default}`, `${NAME:?error}`, `${NAME?error}` and `$$`.
    /// An unset `${NAME}` becomes empty, as in Compose; a failed `?` throws its message.
    func interpolate(_ text: String) throws -> String {
        var result = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            if after.first == "$" {
                result += "$"
                rest = after.dropFirst()
                continue
            }
            guard after.first == "{", let close = after.firstIndex(of: "}") else {
                throw ManifestError("only ${…} substitutions are understood, in \(text)")
            }
            result += try substitute(after[after.index(after: after.startIndex)..<close])
            rest = after[after.index(after: close)...]
        }
        return result + rest
    }

    private func substitute(_ expression: Substring) throws -> String {
        let name = String(expression.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        let operation = expression.dropFirst(name.count)
        let value = values[name]
        let nonEmpty = value.flatMap { $0.isEmpty ? nil : $0 }
        if operation.isEmpty { return value ?? "" }
        if operation.hasPrefix(":-") { return nonEmpty ?? String(operation.dropFirst(2)) }
        if operation.hasPrefix("-") { return value ?? String(operation.dropFirst()) }
        if operation.hasPrefix(":?") {
            guard let nonEmpty else { throw ManifestError("\(name): \(operation.dropFirst(2))") }
            return nonEmpty
        }
        if operation.hasPrefix("?") {
            guard let value else { throw ManifestError("\(name): \(operation.dropFirst())") }
            return value
        }
        throw ManifestError("unsupported substitution ${\(expression)}")
    }
}

/// A deployment file that does not say what the checks need, and where.
struct ManifestError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
