"""The casino host's evaluation suites, as `frontdesk eval` runs them: the scripted
conversations scored turn by turn (`conversations`) and the suites' targets (`suites`).
"""
