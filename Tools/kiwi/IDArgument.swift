import ArgumentParser
import Foundation

/// The ids the commands take, checked before any request is sent. A malformed one is a usage error (exit status 64)
/// that says what to pass and where to find it; sent as it was, the server would refuse it with a sentence about its
/// JSON body or path that tells a person nothing.
enum IDArgument {
    /// A scan's id, as `kiwi scan` and `kiwi scans` print it, spelt as the API spells it (lowercase).
    static func scan(_ text: String, named name: String = "SCAN") throws -> String {
        guard let id = UUID(uuidString: text) else {
            throw ValidationError("\(name) must be a scan id (a UUID), as `kiwi scans` lists them; '\(text)' is not one.")
        }
        return id.uuidString.lowercased()
    }

    /// A saved recipe's id, as `kiwi recipes` and `kiwi save` print it. A position in `kiwi recipes` is refused rather
    /// than looked up: the list's order changes with every save and search, so a number could share or export another
    /// recipe than the one the person read.
    static func savedRecipe(_ text: String) throws -> String {
        guard let id = UUID(uuidString: text) else {
            let number = Int(text) == nil ? "" : " A number is not taken here: the list's order changes with every save."
            throw ValidationError("ID must be a saved recipe's id (a UUID), as `kiwi recipes` lists them; '\(text)' is not one.\(number)")
        }
        return id.uuidString.lowercased()
    }

    /// A plan's id, as `kiwi plan` prints it.
    static func plan(_ text: String) throws -> String {
        guard let id = UUID(uuidString: text) else {
            throw ValidationError("ID must be a plan's id (a UUID), as `kiwi plan` prints it; '\(text)' is not one.")
        }
        return id.uuidString.lowercased()
    }
}
