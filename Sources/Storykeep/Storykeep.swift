// The domain of Storykeep, one folder per module.
