import Connector

/// A validation protocol message as a server or a client receives it in a text frame (any bytes,
/// read as UTF-8): `ClientMessage.parse` is what `emrtd serve` runs on a stranger's input before
/// anything else, `ServerMessage.parse` what `Connector` runs on the server's. A message that
/// parses must come out the same after its own encoding (the access key included).
let validationMessageTarget = FuzzTarget(name: "validationMessage") { input in
    let text = String(decoding: input, as: UTF8.self)
    if let message = try? ClientMessage.parse(text) {
        let again = try? ClientMessage.parse(message.text)
        switch (message, again) {
        case (.hello(let first), .hello(let second)?):
            fuzzCheck(first == second, "hello does not survive its encoding")
        case (.access(let firstKey, let firstFiles), .access(let secondKey, let secondFiles)?):
            fuzzCheck(firstKey == secondKey && firstFiles == secondFiles, "access does not survive its encoding")
        case (.chipLost(let first), .chipLost(let second)?):
            fuzzCheck(first == second, "chipLost does not survive its encoding")
        default:
            fuzzCheck(false, "a parsed client message does not parse again as itself")
        }
    }
    if let message = try? ServerMessage.parse(text) {
        fuzzCheck((try? ServerMessage.parse(message.text)) == message, "a server message does not survive its encoding")
    }
}
