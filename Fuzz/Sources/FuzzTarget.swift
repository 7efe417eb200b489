/// One libFuzzer target: a name and the code that hands the fuzzer's bytes to a parser
/// the way the reader would. Errors thrown are the expected outcome for most inputs;
/// what the fuzzer looks for is a trap, a hang or unbounded memory.
struct FuzzTarget: Sendable {
    let name: String
    let run: @Sendable (_ input: [UInt8]) -> Void
}

/// Every target, by name. `Fuzz/targets` gives each one its seeds and dictionary.
let allTargets: [String: FuzzTarget] = Dictionary(
    uniqueKeysWithValues: ([
        asn1Target, mrzTarget, biometricTarget, jpeg2000Target, secureMessagingTarget, x509Target, signedDataTarget,
        securityObjectTarget, masterListTarget, pkdTarget, chipTarget, paceTarget, chipAuthenticationTarget,
        activeAuthenticationTarget, validationMessageTarget, cvcTarget, sealTarget, terminalAuthenticationTarget,
    ]
        + ldsFileTargets).map {
            ($0.name, $0)
        }
)

/// A property that must hold for every input the parser accepted; a violation is a parser
/// bug, so it traps and libFuzzer records the input as a crasher.
func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("fuzz property violated: \(message())") }
}
