# Job-started hook for the self-hosted DirectML runner (thin wrapper).
# The runner runs it as:  pwsh -command ". 'C:\path\job_started_hook.ps1'"
# and refuses the job on any non-zero exit code. All logic is in
# job_started_hook.py next to this file; see docs/contributing/gpu-runner.md.
# Fails closed: no Python, no script, or any error -> exit 1.
$ErrorActionPreference = 'Stop'
try {
    $hook = Join-Path $PSScriptRoot 'job_started_hook.py'
    if (-not (Test-Path -LiteralPath $hook)) {
        Write-Output "::error::job-started hook: refused: $hook not found"
        exit 1
    }
    # DIRECTML_HOOK_PYTHON: full path to python.exe, set in the runner's .env.
    $python = $env:DIRECTML_HOOK_PYTHON
    if (-not $python) {
        Write-Output '::error::job-started hook: refused: DIRECTML_HOOK_PYTHON is not set on this runner'
        exit 1
    }
    & $python -I $hook
    exit $LASTEXITCODE
}
catch {
    Write-Output "::error::job-started hook: refused: $($_.Exception.Message)"
    exit 1
}
