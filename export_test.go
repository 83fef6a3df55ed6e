package batchlas

// DetectHost is detectHost for the package's external tests: the host's
// facts as detected, whatever BATCHLAS_DEVICE and BATCHLAS_IDENTITY say.
var DetectHost = detectHost
