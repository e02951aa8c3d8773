# Job-started hook for the self-hosted DirectML runner (thin wrapper).
# The runner runs it as:  pwsh -command ". 'C:\path\job_started_hook.ps1'"
# and refuses the job on any non-zero exit code. All logic is in
# job_started_hook.py next to this file; see docs/contributing/gpu-runner.md.
# Fails closed: no Python, no script, or any error -> exit 1.
$ErrorActionPreference = 'Stop'
try {
    # The runner passes no -NoProfile: PowerShell has already run this account's own profiles, which the
    # account (and so any job) can write. Where one exists, a job may have changed what is checked below:
    # refuse. This catches a profile left behind, not a job that set out to hide one: on a persistent PC
    # the hook is a speed bump, not a boundary (docs/contributing/gpu-runner.md).
    foreach ($userProfile in @($PROFILE.CurrentUserAllHosts, $PROFILE.CurrentUserCurrentHost)) {
        if ($userProfile -and (Test-Path -LiteralPath $userProfile)) {
            Write-Output "::error::job-started hook: refused: $userProfile exists and ran before this hook; an administrator must remove it"
            exit 1
        }
    }
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
