/// Phrases of several words, each with what it means, found in a name or a description as runs of whole words: the
/// one way the matcher reads a phrase, whether it says a state ("without salt", "skin not eaten") or names a food
/// the table words otherwise ("double cream").
struct WordPhrases<Meaning: Sendable>: Sendable {
    /// For each word a phrase starts with, the phrases starting with it, the longest first.
    private let byFirstWord: [String: [(words: [String], meaning: Meaning)]]

    init(_ phrases: [(String, Meaning)]) {
        var byFirstWord: [String: [(words: [String], meaning: Meaning)]] = [:]
        for (phrase, meaning) in phrases {
            let words = phrase.split(separator: " ").map(String.init)
            if let first = words.first { byFirstWord[first, default: []].append((words, meaning)) }
        }
        self.byFirstWord = byFirstWord.mapValues { $0.sorted { $0.words.count > $1.words.count } }
    }

    /// Each phrase in `words`, left to right; where several start at one word, the longest. Phrases found do not
    /// overlap.
    func matches(in words: [String]) -> [(range: Range<Int>, meaning: Meaning)] {
        var found: [(range: Range<Int>, meaning: Meaning)] = []
        var start = words.startIndex
        while start < words.endIndex {
            let phrase = byFirstWord[words[start]]?.first { phrase in
                start + phrase.words.count <= words.endIndex && words[start..<start + phrase.words.count].elementsEqual(phrase.words)
            }
            guard let phrase else {
                start += 1
                continue
            }
            found.append((start..<start + phrase.words.count, phrase.meaning))
            start += phrase.words.count
        }
        return found
    }
}

extension WordPhrases where Meaning == String {
    /// `words` with each phrase found replaced by the words of its meaning.
    func replacing(in words: [String]) -> [String] {
        var replaced: [String] = []
        var next = words.startIndex
        for (range, meaning) in matches(in: words) {
            replaced += words[next..<range.lowerBound]
            replaced += meaning.split(separator: " ").map(String.init)
            next = range.upperBound
        }
        return replaced + words[next...]
    }
}
