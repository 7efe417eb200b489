// Is the chip genuine: Chip Authentication, PACE-CAM verification and Active Authentication. Arrives with the chip-authentication issue; the read reports notSupported until then.
