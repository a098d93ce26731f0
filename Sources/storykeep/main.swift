print("storykeep")
