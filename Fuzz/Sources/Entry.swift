import Foundation

#if FUZZING
    /// The target named by `FUZZ_TARGET`, looked up once before the first input.
    private let selectedTarget: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
        guard let target = allTargets[name] else {
            FileHandle.standardError.write(
                Data("FUZZ_TARGET must name one of: \(allTargets.keys.sorted().joined(separator: " "))\n".utf8)
            )
            exit(2)
        }
        return target
    }()

    /// libFuzzer's entry point (the fuzz build links libFuzzer's `main`).
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        selectedTarget.run(input)
        return 0
    }
#else
    /// Outside the fuzz build: `emrtd-fuzz TARGET FILE...` runs a target over saved inputs
    /// (a crasher, a corpus) without sanitizers, e.g. under a debugger.
    @main
    enum Replay {
        static func main() {
            let arguments = CommandLine.arguments.dropFirst()
            if arguments.first == "--write-pace-seeds", let directory = arguments.dropFirst().first {
                // Fuzz/Seeds/make-pace-seeds.sh: the `pace` target's recorded answers as seeds.
                for seed in PACERecording.seeds() {
                    let path = URL(fileURLWithPath: directory).appendingPathComponent("\(seed.name).bin")
                    guard FileManager.default.createFile(atPath: path.path, contents: Data(seed.bytes)) else {
                        FileHandle.standardError.write(Data("cannot write \(path.path)\n".utf8))
                        exit(1)
                    }
                }
                print("wrote \(PACERecording.seeds().count) seeds to \(directory)")
                return
            }
            guard let name = arguments.first, let target = allTargets[name] else {
                FileHandle.standardError.write(
                    Data(
                        "usage: emrtd-fuzz TARGET FILE...\ntargets: \(allTargets.keys.sorted().joined(separator: " "))\n"
                            .utf8
                    )
                )
                exit(2)
            }
            for path in arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else {
                    FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                    exit(1)
                }
                target.run(Array(data))
                print("\(name): \(path) ran to the end (\(data.count) bytes)")
            }
        }
    }
#endif
